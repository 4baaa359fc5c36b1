package io.colocation.koordlet.qos;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Everything the QoS strategies decide from, for one node at one moment. The running agent builds it from its
 * informers, metric cache and cgroups; {@code koordlet explain} builds it from documents. Strategies are pure
 * functions of it.
 *
 * @param capacityCpuMilli     {@code status.capacity.cpu}
 * @param allocatable          {@code status.allocatable}: cpu in milli, others as their integer value
 * @param reservedCpuMilli     max(kubelet reservation = capacity − allocatable, the reservation annotation)
 * @param reservedCpus         the annotation's {@code reservedCPUs}
 * @param systemExclusiveCpus  the exclusive cpuset of {@code node.koordinator.sh/system-qos-resource}
 * @param nodeCpuUsedMilli     the last node CPU sample (also the CPU-eviction window average); null: none
 * @param thresholds           the NodeSLO's {@code resourceUsedThresholdWithBE}; null when there is no NodeSLO
 * @param cpuTopology          the node's logical CPUs; null when unknown
 */
public record NodeSnapshot(
        String nodeName,
        long capacityCpuMilli,
        long capacityMemoryBytes,
        Map<String, Long> allocatable,
        long reservedCpuMilli,
        List<Integer> reservedCpus,
        List<Integer> systemExclusiveCpus,
        List<QoSPod> pods,
        List<YarnContainerState> yarnContainers,
        Long nodeCpuUsedMilli,
        Long nodeMemoryUsedBytes,
        List<HostApplication> hostApplications,
        ResourceThresholds thresholds,
        FeatureGates featureGates,
        List<Processor> cpuTopology,
        BestEffortState bestEffort,
        long collectIntervalSeconds) {

    /** A gate is on and, for suppress and eviction, the NodeSLO enables the BE thresholds. */
    public boolean strategyEnabled(String gate) {
        return featureGates.enabled(gate) && thresholds != null && thresholds.enable();
    }

    /** The same snapshot with the BE tier's state replaced (the agent adds its BE CPU window). */
    public NodeSnapshot withBestEffort(BestEffortState be) {
        return new NodeSnapshot(nodeName, capacityCpuMilli, capacityMemoryBytes, allocatable, reservedCpuMilli, reservedCpus,
                systemExclusiveCpus, pods, yarnContainers, nodeCpuUsedMilli, nodeMemoryUsedBytes, hostApplications, thresholds,
                featureGates, cpuTopology, be, collectIntervalSeconds);
    }

    /** What the BE tier (active BE pods and YARN containers) uses by one measure; unmeasured ones count 0. */
    public long beUsage(Function<QoSPod, Long> pod, Function<YarnContainerState, Long> container) {
        long used = 0;
        for (QoSPod p : pods) {
            Long u = pod.apply(p);
            if (!p.nonBE() && p.active() && u != null) {
                used += u;
            }
        }
        for (YarnContainerState c : yarnContainers) {
            Long u = container.apply(c);
            if (u != null) {
                used += u;
            }
        }
        return used;
    }
}
