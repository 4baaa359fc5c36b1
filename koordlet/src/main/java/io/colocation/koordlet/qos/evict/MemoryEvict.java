package io.colocation.koordlet.qos.evict;

import io.colocation.api.QoSClass;
import io.colocation.api.ResourceNames;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.QoSPod;
import io.colocation.koordlet.qos.ResourceThresholds;
import io.colocation.koordlet.qos.YarnContainerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Koordinator's memory eviction (docs/koordinator-compatibility.md §5.4) as a pure function: BEMemoryEvict, then
 * MemoryAllocatableEvict, then MemoryEvict, over one account. YARN containers are BE work and rank with BE pods
 * in BEMemoryEvict (by application priority, ApplicationMasters last).
 */
public final class MemoryEvict {
    static final long RELEASE_BUFFER_PERCENT = 2;
    static final long MID_PRIORITY_MAX = 7999;

    private MemoryEvict() {
    }

    public static EvictionDecision decide(NodeSnapshot s) {
        List<String> explain = new ArrayList<>();
        if (s.capacityMemoryBytes() <= 0) {
            explain.add("node memory capacity is " + s.capacityMemoryBytes() + ": memory eviction skipped");
            return Planned.decide(Map.of(), explain);
        }
        List<String> gates = List.of(FeatureGates.BE_MEMORY_EVICT, FeatureGates.MEMORY_ALLOCATABLE_EVICT, FeatureGates.MEMORY_EVICT);
        return Planned.round(s, gates, (gate, t, ex) -> switch (gate) {
            case FeatureGates.BE_MEMORY_EVICT -> beMemoryEvict(s, t, ex);
            case FeatureGates.MEMORY_EVICT -> memoryEvict(s, t, ex);
            default -> allocatableEvict(s, t, ex);
        }, explain);
    }

    private static long lowerPercent(ResourceThresholds t) throws Planned.InvalidConfig {
        Long threshold = t.memoryEvictThresholdPercent();
        if (threshold == null) {
            throw new Planned.InvalidConfig("memoryEvictThresholdPercent is not set");
        }
        if (threshold < 0) {
            throw new Planned.InvalidConfig("memoryEvictThresholdPercent (" + threshold + ") must not be negative");
        }
        long lower = t.memoryEvictLowerPercent() != null ? t.memoryEvictLowerPercent() : threshold - RELEASE_BUFFER_PERCENT;
        if (lower >= threshold) {
            throw new Planned.InvalidConfig("memoryEvictLowerPercent (" + lower + ") must be below memoryEvictThresholdPercent ("
                    + threshold + ")");
        }
        return lower;
    }

    /** usage% = node used × 100 / capacity; at threshold% or more, release capacity × (usage% − lower%). */
    private static Map<String, Long> releaseByUsage(NodeSnapshot s, ResourceThresholds t, String gate, List<String> explain)
            throws Planned.InvalidConfig {
        long lower = lowerPercent(t);
        if (s.nodeMemoryUsedBytes() == null) {
            explain.add(gate + ": no node memory sample");
            return Map.of();
        }
        long usage = s.nodeMemoryUsedBytes() * 100 / s.capacityMemoryBytes();
        if (usage < t.memoryEvictThresholdPercent()) {
            explain.add(gate + ": node memory " + s.nodeMemoryUsedBytes() + " B = " + usage + "% of " + s.capacityMemoryBytes()
                    + " B, below the threshold " + t.memoryEvictThresholdPercent() + "%");
            return Map.of();
        }
        long release = s.capacityMemoryBytes() * (usage - lower) / 100;
        explain.add(gate + ": node memory " + s.nodeMemoryUsedBytes() + " B = " + usage + "% of " + s.capacityMemoryBytes()
                + " B ≥ threshold " + t.memoryEvictThresholdPercent() + "%: release " + s.capacityMemoryBytes() + " × (" + usage
                + "% − lower " + lower + "%) = " + release + " B");
        return Map.of(ResourceNames.MEMORY, release);
    }

    private static Planned beMemoryEvict(NodeSnapshot s, ResourceThresholds t, List<String> explain) throws Planned.InvalidConfig {
        Map<String, Long> release = releaseByUsage(s, t, FeatureGates.BE_MEMORY_EVICT, explain);
        return new Planned(EvictionTask.Target.POD_USED, release, beCandidates(s, FeatureGates.BE_MEMORY_EVICT),
                c -> Map.of(ResourceNames.MEMORY, c.memoryUsed()));
    }

    /** BEMemoryEvict's order: BE pods the strategy may evict and YARN containers, ApplicationMasters last. */
    static List<Candidate> beCandidates(NodeSnapshot s, String strategy) {
        List<Candidate> candidates = new ArrayList<>();
        for (QoSPod p : s.pods()) {
            if (p.rawQoS() == QoSClass.BE && p.evictionAllowedBy(strategy)) {
                candidates.add(Candidate.of(p, p.memoryUsedBytes() == null ? 0 : p.memoryUsedBytes(), 0, 0));
            }
        }
        for (YarnContainerState c : s.yarnContainers()) {
            candidates.add(Candidate.of(c));
        }
        return Ordering.mastersLast(Ordering.sort(candidates, MemoryEvict::beLess));
    }

    /** Priority ascending when both have one, then memory used descending, unmeasured last, then name descending. */
    private static boolean beLess(Candidate a, Candidate b) {
        Integer pa = a.specPriority();
        Integer pb = b.specPriority();
        if (pa != null && pb != null && !pa.equals(pb)) {
            return pa < pb;
        }
        if (a.memoryUsed() != 0 && b.memoryUsed() != 0) {
            return a.memoryUsed() > b.memoryUsed();
        }
        if (a.memoryUsed() == 0 && b.memoryUsed() == 0) {
            return a.name().compareTo(b.name()) > 0;
        }
        return b.memoryUsed() == 0;
    }

    private static Planned memoryEvict(NodeSnapshot s, ResourceThresholds t, List<String> explain) throws Planned.InvalidConfig {
        lowerPercent(t);
        if (t.evictEnabledPriorityThreshold() == null) {
            throw new Planned.InvalidConfig("evictEnabledPriorityThreshold is not set");
        }
        Map<String, Long> release = releaseByUsage(s, t, FeatureGates.MEMORY_EVICT, explain);
        // Koordinator stores this path's memory figure × 1000 (docs/koordinator-compatibility.md §5.4): kept, so the same
        // victims are chosen; one victim covers the release.
        List<Candidate> sorted = PriorityEvictions.candidates(s, FeatureGates.MEMORY_EVICT, t.evictEnabledPriorityThreshold(),
                QoSPod::memoryUsedBytes,
                p -> Candidate.of(p, p.memoryUsedBytes() * 1000, 0, Requests.typed(p, ResourceNames.MEMORY).getValue()),
                (a, b) -> a.memoryUsed() > b.memoryUsed());
        return new Planned(EvictionTask.Target.POD_USED, release, sorted, c -> Map.of(ResourceNames.MEMORY, c.memoryUsed()));
    }

    private static Planned allocatableEvict(NodeSnapshot s, ResourceThresholds t, List<String> explain)
            throws Planned.InvalidConfig {
        Long threshold = t.memoryAllocatableEvictThresholdPercent();
        if (threshold == null) {
            throw new Planned.InvalidConfig("memoryAllocatableEvictThresholdPercent is not set");
        }
        long lower = t.memoryAllocatableEvictLowerPercent() == null ? 0 : t.memoryAllocatableEvictLowerPercent();
        long priority = Planned.allocatablePriority(t, threshold, lower, "memory");
        Map<String, Long> release = PriorityEvictions.overRequested(s, ResourceNames.MEMORY, threshold, lower, priority,
                line -> explain.add(FeatureGates.MEMORY_ALLOCATABLE_EVICT + ": " + line));
        List<Candidate> sorted = PriorityEvictions.candidates(s, FeatureGates.MEMORY_ALLOCATABLE_EVICT, priority,
                QoSPod::memoryUsedBytes,
                p -> Candidate.of(p, p.memoryUsedBytes() * 1000, 0, Requests.typed(p, ResourceNames.MEMORY).getValue()),
                (a, b) -> a.request() > b.request());
        return new Planned(EvictionTask.Target.POD_RESOURCE_REQUEST, release, sorted,
                PriorityEvictions.requestOf(release, ResourceNames.MEMORY));
    }
}
