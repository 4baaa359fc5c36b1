package io.colocation.koordlet.qos.evict;

import io.colocation.api.QoSClass;
import io.colocation.api.ResourceNames;
import io.colocation.koordlet.qos.BestEffortState;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.QoSPod;
import io.colocation.koordlet.qos.ResourceThresholds;
import io.colocation.koordlet.qos.YarnContainerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Koordinator's CPU eviction (docs/koordinator-compatibility.md §5.5) as a pure function: BECPUEvict (the BE tier is starved:
 * its limit satisfies too little of its request while it uses nearly all of it), then CPUAllocatableEvict, then
 * CPUEvict (node usage), over one account. YARN containers rank with BE pods in BECPUEvict.
 */
public final class CpuEvict {
    static final long SATISFACTION_LOWER_MAX = 60;
    static final long SATISFACTION_UPPER_MAX = 100;
    static final long BE_USAGE_THRESHOLD_PERCENT = 90;
    static final long RELEASE_BUFFER_PERCENT = 2;
    static final double MIN_ALLOCATABLE_BATCH_MILLI = 1;

    private CpuEvict() {
    }

    public static EvictionDecision decide(NodeSnapshot s) {
        List<String> explain = new ArrayList<>();
        if (s.capacityCpuMilli() <= 0) {
            explain.add("node CPU capacity is " + s.capacityCpuMilli() + "m: CPU eviction skipped");
            return Planned.decide(Map.of(), explain);
        }
        List<String> gates = List.of(FeatureGates.BE_CPU_EVICT, FeatureGates.CPU_ALLOCATABLE_EVICT, FeatureGates.CPU_EVICT);
        return Planned.round(s, gates, (gate, t, ex) -> switch (gate) {
            case FeatureGates.BE_CPU_EVICT -> beCpuEvict(s, t, ex);
            case FeatureGates.CPU_EVICT -> cpuEvict(s, t, ex);
            default -> allocatableEvict(s, t, ex);
        }, explain);
    }

    private static Planned beCpuEvict(NodeSnapshot s, ResourceThresholds t, List<String> explain) throws Planned.InvalidConfig {
        Long lower = t.cpuEvictBESatisfactionLowerPercent();
        Long upper = t.cpuEvictBESatisfactionUpperPercent();
        if (lower == null || upper == null) {
            throw new Planned.InvalidConfig("cpuEvictBESatisfactionLowerPercent or cpuEvictBESatisfactionUpperPercent is not set");
        }
        if (lower > SATISFACTION_LOWER_MAX || lower <= 0) {
            throw new Planned.InvalidConfig("cpuEvictBESatisfactionLowerPercent (" + lower + ") must be in (0, 60]");
        }
        if (upper >= SATISFACTION_UPPER_MAX || upper <= 0) {
            throw new Planned.InvalidConfig("cpuEvictBESatisfactionUpperPercent (" + upper + ") must be in (0, 100)");
        }
        if (upper < lower) {
            throw new Planned.InvalidConfig("cpuEvictBESatisfactionUpperPercent (" + upper
                    + ") is below cpuEvictBESatisfactionLowerPercent (" + lower + ")");
        }
        long release = satisfactionRelease(s, t, explain);
        List<Candidate> candidates = new ArrayList<>();
        for (QoSPod p : s.pods()) {
            if (p.rawQoS() == QoSClass.BE && p.evictionAllowedBy(FeatureGates.BE_CPU_EVICT)) {
                candidates.add(Candidate.of(p, 0, p.cpuUsedMilli() == null ? 0 : p.cpuUsedMilli(),
                        p.request(ResourceNames.BATCH_CPU)));
            }
        }
        for (YarnContainerState c : s.yarnContainers()) {
            candidates.add(Candidate.of(c));
        }
        List<Candidate> sorted = Ordering.mastersLast(Ordering.sort(candidates, (a, b) -> {
            Integer pa = a.specPriority();
            Integer pb = b.specPriority();
            if (pa == null || pb == null || pa.equals(pb)) {
                return usageRatio(a) > usageRatio(b);
            }
            return pa < pb;
        }));
        // keyed kubernetes.io/batch-cpu, as Koordinator's calculateMilliReleaseByBESatisfaction: what BE pods request
        return new Planned(EvictionTask.Target.POD_BATCH_RESOURCE_REQUEST,
                release > 0 ? Map.of(ResourceNames.BATCH_CPU, release) : Map.of(), sorted,
                c -> Map.of(ResourceNames.BATCH_CPU, c.request()));
    }

    private static double usageRatio(Candidate c) {
        return c.request() > 0 ? (double) c.milliCpuUsed() / c.request() : 0;
    }

    /**
     * release = request × (upper% − limit/request) when BE uses at least the usage threshold of its limit and its
     * satisfaction (limit/request) is at most lower%; on the window average and on the latest sample, the smaller.
     */
    private static long satisfactionRelease(NodeSnapshot s, ResourceThresholds t, List<String> explain) {
        String gate = FeatureGates.BE_CPU_EVICT;
        BestEffortState be = s.bestEffort();
        if (be.windowAverage() == null) {
            explain.add(gate + ": no BE CPU samples in the window");
            return 0;
        }
        boolean byAllocatable = ResourceThresholds.EVICT_BY_ALLOCATABLE.equals(t.cpuEvictPolicy());
        double allocatable = batchAllocatable(s);
        double avgRequest = request(s, be.windowAverage());
        double avgLimit = byAllocatable ? allocatable : be.windowAverage().limitMilli();
        String limitName = byAllocatable ? "batch-cpu allocatable" : "real limit";
        if (!usageHighEnough(be.windowAverage().usedMilli(), avgLimit, t)) {
            explain.add(gate + ": BE used " + fmt(be.windowAverage().usedMilli()) + "m of its " + limitName + " " + fmt(avgLimit)
                    + "m (window average), below " + usageThreshold(t) + "%");
            return 0;
        }
        long release = byRequest(avgRequest, avgLimit, t);
        explain.add(gate + ": window average: BE used " + fmt(be.windowAverage().usedMilli()) + "m, " + limitName + " "
                + fmt(avgLimit) + "m, request " + fmt(avgRequest) + "m: satisfaction "
                + (avgRequest > 0 ? fmt(avgLimit / avgRequest * 100) + "%" : "n/a") + ", release " + release + "m");
        if (release <= 0) {
            return 0;
        }
        BestEffortState.BeCpu latest = be.latest() != null ? be.latest() : new BestEffortState.BeCpu(0, 0, 0.0);
        double curRequest = be.latest() == null ? 0 : request(s, latest);
        double curLimit = byAllocatable ? allocatable : latest.limitMilli();
        if (!usageHighEnough(latest.usedMilli(), curLimit, t)) {
            explain.add(gate + ": latest sample: BE used " + fmt(latest.usedMilli()) + "m of " + fmt(curLimit)
                    + "m, below " + usageThreshold(t) + "%: no release");
            return 0;
        }
        if (curRequest == avgRequest && curLimit == avgLimit) {
            return release;
        }
        long current = byRequest(curRequest, curLimit, t);
        explain.add(gate + ": latest sample: request " + fmt(curRequest) + "m, " + limitName + " " + fmt(curLimit)
                + "m: release " + current + "m; the smaller is used");
        return current <= 0 ? 0 : Math.min(release, current);
    }

    private static double request(NodeSnapshot s, BestEffortState.BeCpu sample) {
        if (sample.requestMilli() != null) {
            return sample.requestMilli();
        }
        long sum = 0;
        for (QoSPod p : s.pods()) {
            if (p.rawQoS() == QoSClass.BE && p.active()) {
                sum += p.request(ResourceNames.BATCH_CPU);
            }
        }
        for (YarnContainerState c : s.yarnContainers()) {
            sum += c.cpuMilli(); // YARN containers are BE work in the same cgroup: their vcores are BE request too
        }
        return sum;
    }

    /** Node batch-cpu allocatable; 0 counts as 1m so satisfaction stays defined; none is -1. */
    private static double batchAllocatable(NodeSnapshot s) {
        Long v = s.allocatable().get(ResourceNames.BATCH_CPU);
        if (v == null || v < 0) {
            return -1;
        }
        return v == 0 ? MIN_ALLOCATABLE_BATCH_MILLI : v;
    }

    private static long usageThreshold(ResourceThresholds t) {
        return t.cpuEvictBEUsageThresholdPercent() != null ? t.cpuEvictBEUsageThresholdPercent() : BE_USAGE_THRESHOLD_PERCENT;
    }

    private static boolean usageHighEnough(double used, double limit, ResourceThresholds t) {
        if (limit <= 0) {
            return false;
        }
        if (limit < 1000) {
            return true; // less than a core: starved whatever it uses
        }
        return used / limit >= (double) usageThreshold(t) / 100;
    }

    private static long byRequest(double request, double limit, ResourceThresholds t) {
        if (request <= 0) {
            return 0;
        }
        double satisfaction = limit / request;
        if (satisfaction > (double) t.cpuEvictBESatisfactionLowerPercent() / 100) {
            return 0;
        }
        double gap = (double) t.cpuEvictBESatisfactionUpperPercent() / 100 - satisfaction;
        if (gap <= 0) {
            return 0;
        }
        return (long) (request * gap);
    }

    private static Planned cpuEvict(NodeSnapshot s, ResourceThresholds t, List<String> explain) throws Planned.InvalidConfig {
        Long threshold = t.cpuEvictThresholdPercent();
        if (threshold == null) {
            throw new Planned.InvalidConfig("cpuEvictThresholdPercent is not set");
        }
        if (threshold < 0) {
            throw new Planned.InvalidConfig("cpuEvictThresholdPercent (" + threshold + ") must not be negative");
        }
        long lower = t.cpuEvictLowerPercent() != null ? t.cpuEvictLowerPercent() : threshold - RELEASE_BUFFER_PERCENT;
        if (lower >= threshold) {
            throw new Planned.InvalidConfig("cpuEvictLowerPercent (" + lower + ") must be below cpuEvictThresholdPercent ("
                    + threshold + ")");
        }
        if (t.evictEnabledPriorityThreshold() == null) {
            throw new Planned.InvalidConfig("evictEnabledPriorityThreshold is not set");
        }
        Map<String, Long> release = Map.of();
        String gate = FeatureGates.CPU_EVICT;
        if (s.nodeCpuUsedMilli() == null) {
            explain.add(gate + ": no node CPU samples in the window");
        } else {
            long usage = s.nodeCpuUsedMilli() * 100 / s.capacityCpuMilli();
            if (usage < threshold) {
                explain.add(gate + ": node CPU " + s.nodeCpuUsedMilli() + "m = " + usage + "% of " + s.capacityCpuMilli()
                        + "m (window average), below the threshold " + threshold + "%");
            } else {
                long amount = s.capacityCpuMilli() * (usage - lower) / 100;
                explain.add(gate + ": node CPU " + s.nodeCpuUsedMilli() + "m = " + usage + "% of " + s.capacityCpuMilli()
                        + "m ≥ threshold " + threshold + "%: release " + s.capacityCpuMilli() + "m × (" + usage + "% − lower "
                        + lower + "%) = " + amount + "m");
                release = Map.of(ResourceNames.CPU, amount);
            }
        }
        List<Candidate> sorted = PriorityEvictions.candidates(s, gate, t.evictEnabledPriorityThreshold(), QoSPod::cpuUsedMilli,
                p -> Candidate.of(p, 0, p.cpuUsedMilli(), p.request(ResourceNames.BATCH_CPU)),
                (a, b) -> a.milliCpuUsed() > b.milliCpuUsed());
        return new Planned(EvictionTask.Target.POD_USED, release, sorted, c -> Map.of(ResourceNames.CPU, c.milliCpuUsed()));
    }

    private static Planned allocatableEvict(NodeSnapshot s, ResourceThresholds t, List<String> explain)
            throws Planned.InvalidConfig {
        Long threshold = t.cpuAllocatableEvictThresholdPercent();
        if (threshold == null) {
            throw new Planned.InvalidConfig("cpuAllocatableEvictThresholdPercent is not set");
        }
        long lower = t.cpuAllocatableEvictLowerPercent() == null ? 0 : t.cpuAllocatableEvictLowerPercent();
        long priority = Planned.allocatablePriority(t, threshold, lower, "cpu");
        Map<String, Long> release = PriorityEvictions.overRequested(s, ResourceNames.CPU, threshold, lower, priority,
                line -> explain.add(FeatureGates.CPU_ALLOCATABLE_EVICT + ": " + line));
        List<Candidate> sorted = PriorityEvictions.candidates(s, FeatureGates.CPU_ALLOCATABLE_EVICT, priority,
                QoSPod::cpuUsedMilli,
                p -> Candidate.of(p, 0, p.cpuUsedMilli(), Requests.typed(p, ResourceNames.CPU).getValue()),
                (a, b) -> a.request() > b.request());
        return new Planned(EvictionTask.Target.POD_RESOURCE_REQUEST, release, sorted,
                PriorityEvictions.requestOf(release, ResourceNames.CPU));
    }

    /** As {@code %.1f} formats it (half up on the decimal digits), without the Formatter's cost: the round runs every second. */
    private static String fmt(double v) {
        if (v == Math.rint(v)) {
            return String.valueOf((long) v);
        }
        if (v < 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            return String.format(java.util.Locale.ROOT, "%.1f", v);
        }
        return new java.math.BigDecimal(Double.toString(v)).setScale(1, java.math.RoundingMode.HALF_UP).toPlainString();
    }
}
