package io.colocation.koordlet.collect;

import java.util.List;

/**
 * What to measure in one sample: this node's pods (from the informer) and, when {@code podContainers}, their
 * containers, the NodeSLO's host applications, the copilot's YARN containers ({@code yarnListKnown} false while the
 * copilot cannot be asked), and the memory policy of the NodeMetric spec.
 */
public record CollectTargets(List<PodTarget> pods, boolean podContainers, List<HostAppTarget> hostApps, boolean yarnListKnown,
        List<YarnTarget> yarnContainers, MemoryCollectPolicy memoryPolicy) {

    /** @param kubeQoS Guaranteed, Burstable or BestEffort (the kubelet's cgroup tier) */
    public record PodTarget(String uid, String namespace, String name, String kubeQoS, List<ContainerTarget> containers) {
        public String key() {
            return namespace + "/" + name;
        }
    }

    /** @param containerID the status form, {@code containerd://<id>} */
    public record ContainerTarget(String name, String containerID) {
    }

    /** @param cgroupDir relative to the cgroup root */
    public record HostAppTarget(String name, String cgroupDir) {
    }

    /** @param cgroupDir relative to the cgroup root; @param pids the container's process tree (copilot) */
    public record YarnTarget(String containerID, String cgroupDir, List<Integer> pids) {
    }
}
