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

    /**
     * A running YARN container as the copilot lists it.
     *
     * @param cgroupDir           relative to the cgroup root; empty when YARN put it in none (DefaultContainerExecutor)
     * @param pids                the container's process tree
     * @param vcores              its allocation
     * @param memoryMB            its allocation
     * @param priority            the container's YARN priority
     * @param applicationMaster   the application's AM container
     */
    public record YarnTarget(String containerID, String cgroupDir, List<Integer> pids, int vcores, long memoryMB, int priority,
            boolean applicationMaster) {
        /** What the collector needs; allocation unknown. */
        public YarnTarget(String containerID, String cgroupDir, List<Integer> pids) {
            this(containerID, cgroupDir, pids, 0, 0, 0, false);
        }
    }
}
