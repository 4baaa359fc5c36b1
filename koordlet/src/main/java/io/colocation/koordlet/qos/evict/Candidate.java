package io.colocation.koordlet.qos.evict;

import io.colocation.koordlet.qos.QoSPod;
import io.colocation.koordlet.qos.Victim;
import io.colocation.koordlet.qos.YarnContainerState;

/**
 * A possible victim as one strategy sees it, with the figures that strategy ranks and counts by.
 *
 * @param pod            the pod, or null for a YARN container
 * @param container      the YARN container, or null for a pod
 * @param memoryUsed     what the strategy counts as the victim's memory use (bytes)
 * @param milliCpuUsed   the victim's CPU use
 * @param request        the strategy's request figure (memory bytes or batch/mid/cpu request)
 */
public record Candidate(Victim victim, QoSPod pod, YarnContainerState container, long memoryUsed, long milliCpuUsed,
        long request) {

    static Candidate of(QoSPod pod, long memoryUsed, long milliCpuUsed, long request) {
        return new Candidate(Victim.pod(pod.namespace(), pod.name()), pod, null, memoryUsed, milliCpuUsed, request);
    }

    static Candidate of(YarnContainerState c) {
        return new Candidate(Victim.yarnContainer(c.id()), null, c, c.memoryUsedBytes() == null ? 0 : c.memoryUsedBytes(),
                c.cpuUsedMilli() == null ? 0 : c.cpuUsedMilli(), c.cpuMilli());
    }

    boolean applicationMaster() {
        return container != null && container.applicationMaster();
    }

    String name() {
        return pod != null ? pod.name() : container.id();
    }

    /** spec.priority of a pod; the koord-batch-range priority of a YARN container. */
    Integer specPriority() {
        return pod != null ? pod.specPriority() : Integer.valueOf(container.priority());
    }
}
