package io.colocation.model.config;

import java.util.List;

/**
 * Koordinator's {@code ColocationStrategy} (docs/koordinator-compatibility.md §2.2). A null field is unset: a
 * strategy read from configuration carries only what the user wrote, and {@link #overlay} lays one
 * strategy over another field by field, as Koordinator merges cluster, node-selector and node-annotation
 * strategies. {@link #defaults()} sets every field that has a default.
 */
public record ColocationStrategy(
        Boolean enable,
        Long metricAggregateDurationSeconds,
        Long metricReportIntervalSeconds,
        List<String> metricAggregateDurations,
        String metricMemoryCollectPolicy,
        Long cpuReclaimThresholdPercent,
        CalculatePolicy cpuCalculatePolicy,
        Long memoryReclaimThresholdPercent,
        CalculatePolicy memoryCalculatePolicy,
        Long degradeTimeMinutes,
        Long updateTimeThresholdSeconds,
        Double resourceDiffThreshold,
        Long batchCPUThresholdPercent,
        Long batchMemoryThresholdPercent,
        String midReclaimMode,
        Long midCPUThresholdPercent,
        Long midMemoryThresholdPercent,
        Long midUnallocatedPercent,
        Long midStaticCPUReservedPercent,
        Long midStaticMemoryReservedPercent) {

    public static final String MID_RECLAIM_MODE_STATIC = "static";

    public static final ColocationStrategy EMPTY = new ColocationStrategy(null, null, null, null, null, null, null,
            null, null, null, null, null, null, null, null, null, null, null, null, null);

    /** Koordinator's {@code DefaultColocationStrategy()}. */
    public static ColocationStrategy defaults() {
        return new ColocationStrategy(false, 300L, 60L, List.of("5m", "10m", "30m"), "usageWithoutPageCache",
                60L, CalculatePolicy.USAGE, 65L, CalculatePolicy.USAGE, 15L, 300L, 0.1, null, null, null,
                100L, 100L, 0L, 0L, 0L);
    }

    /** This strategy with every field that {@code top} sets replaced by top's value. */
    public ColocationStrategy overlay(ColocationStrategy top) {
        return new ColocationStrategy(
                pick(top.enable, enable),
                pick(top.metricAggregateDurationSeconds, metricAggregateDurationSeconds),
                pick(top.metricReportIntervalSeconds, metricReportIntervalSeconds),
                pick(top.metricAggregateDurations, metricAggregateDurations),
                pick(top.metricMemoryCollectPolicy, metricMemoryCollectPolicy),
                pick(top.cpuReclaimThresholdPercent, cpuReclaimThresholdPercent),
                pick(top.cpuCalculatePolicy, cpuCalculatePolicy),
                pick(top.memoryReclaimThresholdPercent, memoryReclaimThresholdPercent),
                pick(top.memoryCalculatePolicy, memoryCalculatePolicy),
                pick(top.degradeTimeMinutes, degradeTimeMinutes),
                pick(top.updateTimeThresholdSeconds, updateTimeThresholdSeconds),
                pick(top.resourceDiffThreshold, resourceDiffThreshold),
                pick(top.batchCPUThresholdPercent, batchCPUThresholdPercent),
                pick(top.batchMemoryThresholdPercent, batchMemoryThresholdPercent),
                pick(top.midReclaimMode, midReclaimMode),
                pick(top.midCPUThresholdPercent, midCPUThresholdPercent),
                pick(top.midMemoryThresholdPercent, midMemoryThresholdPercent),
                pick(top.midUnallocatedPercent, midUnallocatedPercent),
                pick(top.midStaticCPUReservedPercent, midStaticCPUReservedPercent),
                pick(top.midStaticMemoryReservedPercent, midStaticMemoryReservedPercent));
    }

    public boolean isEnabled() {
        return Boolean.TRUE.equals(enable);
    }

    public boolean isMidStatic() {
        return MID_RECLAIM_MODE_STATIC.equals(midReclaimMode);
    }

    private static <T> T pick(T top, T base) {
        return top != null ? top : base;
    }
}
