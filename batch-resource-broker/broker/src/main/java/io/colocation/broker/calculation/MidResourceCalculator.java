package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import io.colocation.api.PriorityClass;
import io.colocation.model.config.ColocationStrategy;
import java.time.Instant;
import java.util.List;

/**
 * Reclaimable Mid of one node, as Koordinator's {@code MidResource} plugin computes it
 * (docs/koordinator-compatibility.md §3.1). Default mode:
 * <pre>
 * mid = min( max(min(prodReclaimable, nodeUnused), 0) + unallocated * midUnallocatedPercent/100,
 *            cap * midThresholdPercent/100 )
 * </pre>
 * (the threshold caps the sum, as the code does; the v1.6 blog's formula caps before the addition).
 * Static mode: {@code min(cap * midStatic...ReservedPercent/100, cap * midThresholdPercent/100)}.
 */
public final class MidResourceCalculator {
    static final String DEGRADED = "degrade node Mid resource because of abnormal nodeMetric, reason: degradedByMidResource";

    private MidResourceCalculator() {
    }

    public static ResourceResult calculate(ColocationStrategy strategy, NodeState node, NodeMetricState metric, Instant now) {
        if (DegradeRules.isDegraded(metric, strategy, now)) {
            return ResourceResult.reset(DEGRADED, true);
        }
        Resources capacity = node.capacity();
        long cpuCap = Percent.of(capacity.cpuMilli(), strategy.midCPUThresholdPercent());
        long memCap = Percent.of(capacity.memoryBytes(), strategy.midMemoryThresholdPercent());
        if (strategy.isMidStatic()) {
            long cpuStatic = Percent.of(capacity.cpuMilli(), strategy.midStaticCPUReservedPercent());
            long memStatic = Percent.of(capacity.memoryBytes(), strategy.midStaticMemoryReservedPercent());
            long cpu = Math.min(cpuStatic, cpuCap);
            long memory = Math.min(memStatic, memCap);
            return new ResourceResult(new Resources(cpu, memory), false, List.of(
                    "midAllocatable[CPU(milli-core)]:" + cpu + " = min(nodeCapacity:" + capacity.cpuMilli()
                            + " * midStaticCPUReservedPercent:" + strategy.midStaticCPUReservedPercent()
                            + "%, nodeCapacity:" + capacity.cpuMilli() + " * midCPUThresholdPercent:"
                            + strategy.midCPUThresholdPercent() + "%) (midReclaimMode static)",
                    "midAllocatable[Memory(GB)]:" + Explain.gb(memory) + " = min(nodeCapacity:"
                            + Explain.gb(capacity.memoryBytes()) + " * midStaticMemoryReservedPercent:"
                            + strategy.midStaticMemoryReservedPercent() + "%, nodeCapacity:"
                            + Explain.gb(capacity.memoryBytes()) + " * midMemoryThresholdPercent:"
                            + strategy.midMemoryThresholdPercent() + "%) (midReclaimMode static)"));
        }

        Resources prodReclaimable = metric.prodReclaimable() != null ? metric.prodReclaimable() : Resources.ZERO;
        Resources systemUsed = metric.systemUsage().plus(BatchResourceCalculator.hostAppUsageAbove(metric.hostApps(), PriorityClass.MID));
        Resources nodeReserved = systemUsed.max(node.reserved());
        Resources prodAllocated = Resources.ZERO;
        for (PodState pod : node.pods()) {
            PriorityClass p = pod.priority();
            if (pod.runningOrPending() && p != PriorityClass.MID && p != PriorityClass.BATCH && p != PriorityClass.FREE) {
                prodAllocated = prodAllocated.plus(pod.request());
            }
        }
        Resources unallocated = capacity.minus(nodeReserved).minus(prodAllocated).atLeastZero();
        // Without a valid node usage, nothing is believed unused (Koordinator: strict on missing data).
        Resources nodeUnused = metric.nodeUsage() != null ? capacity.minus(metric.nodeUsage()) : Resources.ZERO;
        Resources reclaimed = prodReclaimable.min(nodeUnused).atLeastZero();
        long unallocatedCpu = Percent.of(unallocated.cpuMilli(), strategy.midUnallocatedPercent());
        long unallocatedMem = Percent.of(unallocated.memoryBytes(), strategy.midUnallocatedPercent());
        long cpu = Math.min(reclaimed.cpuMilli() + unallocatedCpu, cpuCap);
        long memory = Math.min(reclaimed.memoryBytes() + unallocatedMem, memCap);
        String ratio = Explain.ratio(strategy.midUnallocatedPercent() / 100.0);
        return new ResourceResult(new Resources(cpu, memory), false, List.of(
                "midAllocatable[CPU(milli-core)]:" + cpu + " = min(max(min(prodReclaimable:"
                        + prodReclaimable.cpuMilli() + ", nodeUnused:" + nodeUnused.cpuMilli() + "), 0) + unallocated:"
                        + unallocated.cpuMilli() + " * midUnallocatedRatio:" + ratio + ", nodeCapacity:"
                        + capacity.cpuMilli() + " * thresholdRatio:"
                        + (Explain.ratio(strategy.midCPUThresholdPercent() / 100.0)) + ")",
                "midAllocatable[Memory(GB)]:" + Explain.gb(memory) + " = min(max(min(prodReclaimable:"
                        + Explain.gb(prodReclaimable.memoryBytes()) + ", nodeUnused:"
                        + Explain.gb(nodeUnused.memoryBytes()) + "), 0) + unallocated:"
                        + Explain.gb(unallocated.memoryBytes()) + " * midUnallocatedRatio:" + ratio + ", nodeCapacity:"
                        + Explain.gb(capacity.memoryBytes()) + " * thresholdRatio:"
                        + (Explain.ratio(strategy.midMemoryThresholdPercent() / 100.0)) + ")"));
    }
}
