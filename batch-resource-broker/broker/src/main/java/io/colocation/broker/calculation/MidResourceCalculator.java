package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import io.colocation.api.PriorityClass;
import io.colocation.model.config.ColocationStrategy;
import java.time.Instant;
import java.util.List;

/**
 * Reclaimable Mid of one node, as Koordinator's {@code MidResource} plugin computes it
 * (KOORDINATOR-COMPAT.md §3.1). Default mode:
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
        if (MetricFreshness.isDegraded(metric, strategy, now)) {
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
                    String.format("midAllocatable[CPU(milli-core)]:%d = min(nodeCapacity:%d * midStaticCPUReservedPercent:%d%%,"
                            + " nodeCapacity:%d * midCPUThresholdPercent:%d%%) (midReclaimMode static)", cpu,
                            capacity.cpuMilli(), strategy.midStaticCPUReservedPercent(), capacity.cpuMilli(),
                            strategy.midCPUThresholdPercent()),
                    String.format("midAllocatable[Memory(GB)]:%d = min(nodeCapacity:%d * midStaticMemoryReservedPercent:%d%%,"
                            + " nodeCapacity:%d * midMemoryThresholdPercent:%d%%) (midReclaimMode static)", Explain.gb(memory),
                            Explain.gb(capacity.memoryBytes()), strategy.midStaticMemoryReservedPercent(),
                            Explain.gb(capacity.memoryBytes()), strategy.midMemoryThresholdPercent())));
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
                String.format("midAllocatable[CPU(milli-core)]:%d = min(max(min(prodReclaimable:%d, nodeUnused:%d), 0)"
                        + " + unallocated:%d * midUnallocatedRatio:%s, nodeCapacity:%d * thresholdRatio:%s)", cpu,
                        prodReclaimable.cpuMilli(), nodeUnused.cpuMilli(), unallocated.cpuMilli(), ratio, capacity.cpuMilli(),
                        Explain.ratio(strategy.midCPUThresholdPercent() / 100.0)),
                String.format("midAllocatable[Memory(GB)]:%d = min(max(min(prodReclaimable:%d, nodeUnused:%d), 0)"
                        + " + unallocated:%d * midUnallocatedRatio:%s, nodeCapacity:%d * thresholdRatio:%s)", Explain.gb(memory),
                        Explain.gb(prodReclaimable.memoryBytes()), Explain.gb(nodeUnused.memoryBytes()),
                        Explain.gb(unallocated.memoryBytes()), ratio, Explain.gb(capacity.memoryBytes()),
                        Explain.ratio(strategy.midMemoryThresholdPercent() / 100.0))));
    }
}
