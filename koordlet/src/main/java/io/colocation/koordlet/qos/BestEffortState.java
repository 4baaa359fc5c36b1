package io.colocation.koordlet.qos;

import java.util.List;

/**
 * What the agent reads from the BE tier's cgroup: its current cpuset (null: unknown) and CFS quota (-1 = none),
 * and the BE CPU usage, limit and request over the eviction window and at the last sample (null: no samples).
 */
public record BestEffortState(List<Integer> cpusetCpus, long cfsQuotaMicros, long cfsPeriodMicros, BeCpu windowAverage,
        BeCpu latest) {
    public static final long UNSET_QUOTA = -1;
    public static final long DEFAULT_PERIOD = 100_000;

    /** BE CPU in milli-cores: used, the real limit (cpuset and quota), and the sum of BE pods' batch-cpu requests. */
    public record BeCpu(double usedMilli, double limitMilli, Double requestMilli) {
    }
}
