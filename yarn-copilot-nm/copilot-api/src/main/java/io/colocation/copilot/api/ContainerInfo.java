package io.colocation.copilot.api;

import java.util.List;
import java.util.Map;

/**
 * One YARN container as the copilot serves it. The first fields are those of Koordinator's
 * yarn-copilot-agent {@code ContainerInfo} (name, namespace "yarn", uid, labels, annotations, priority,
 * createTimestamp, cgroupDir, hostNetwork, resources); the rest are ours.
 *
 * @param cgroupDir  where the container's cgroup is or should be, relative to the cgroup root
 *                   ({@code kubepods/besteffort/hadoop-yarn/<container_id>} by default)
 * @param type       {@code APPLICATION_MASTER} or {@code TASK}
 * @param state      {@code NEW} (no process yet), {@code RUNNING}, {@code EXITED} (process ended), {@code DONE}
 *                   (the NodeManager finished with it)
 * @param pid        the container's root process, from the NodeManager's pid file; null before launch
 * @param pids       every process of the container's tree (descendants and its session)
 * @param exitStatus the process's exit code once known, else null
 */
public record ContainerInfo(
        String name,
        String namespace,
        String uid,
        Map<String, String> labels,
        Map<String, String> annotations,
        int priority,
        String createTimestamp,
        String cgroupDir,
        boolean hostNetwork,
        ResourceRequirements resources,
        String containerID,
        String applicationID,
        String user,
        int vcores,
        long memoryMB,
        String type,
        String state,
        long startTime,
        Integer pid,
        List<Integer> pids,
        Integer exitStatus) {

    /** Kubernetes-style requests and limits (equal for YARN containers): cpu in cores, memory in bytes. */
    public record ResourceRequirements(Map<String, String> limits, Map<String, String> requests) {
    }
}
