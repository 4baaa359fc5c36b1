package io.colocation.koordlet.qos.evict;

import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.ResourceThresholds;
import io.colocation.koordlet.qos.Victim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** One strategy's plan before the round runs: what it releases, its order, and how victims count. */
record Planned(EvictionTask.Target target, Map<String, Long> release, List<Candidate> candidates,
        Function<Candidate, Map<String, Long>> releasedBy) {

    /** An enabled strategy that cannot act (invalid configuration). */
    static final Planned NONE = new Planned(EvictionTask.Target.POD_USED, Map.of(), List.of(), c -> Map.of());

    /** A configuration the strategy refuses, as Koordinator's config checks do. */
    static final class InvalidConfig extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidConfig(String message) {
            super(message);
        }
    }

    /** Plans one strategy; throws when its configuration is one Koordinator refuses. */
    interface Planner {
        Planned plan(String gate, ResourceThresholds t, List<String> explain) throws InvalidConfig;
    }

    /**
     * One area's round: each admitted gate in {@code gates}' order is planned (an invalid configuration leaves the
     * strategy enabled but releasing nothing, with the reason), then the round runs over them.
     */
    static EvictionDecision round(NodeSnapshot s, List<String> gates, Planner planner, List<String> explain) {
        Map<String, Planned> planned = new LinkedHashMap<>();
        for (String gate : gates) {
            if (!admitted(s, gate, explain)) {
                continue;
            }
            try {
                planned.put(gate, planner.plan(gate, s.thresholds(), explain));
            } catch (InvalidConfig e) {
                explain.add(gate + " skipped: " + e.getMessage());
                planned.put(gate, NONE);
            }
        }
        return decide(planned, explain);
    }

    /** The gate is on and the NodeSLO enables the BE thresholds; otherwise says why not. */
    private static boolean admitted(NodeSnapshot s, String gate, List<String> explain) {
        if (!s.featureGates().enabled(gate)) {
            return false;
        }
        if (s.thresholds() == null) {
            explain.add(gate + ": no NodeSLO for this node, skipped");
            return false;
        }
        if (!s.thresholds().enable()) {
            explain.add(gate + ": NodeSLO resourceUsedThresholdWithBE.enable is false, skipped");
            return false;
        }
        return true;
    }

    /** The allocatable strategies' common checks; returns allocatableEvictPriorityThreshold. */
    static long allocatablePriority(ResourceThresholds t, long threshold, long lower, String resource)
            throws InvalidConfig {
        if (threshold < 0) {
            throw new InvalidConfig(resource + "AllocatableEvictThresholdPercent (" + threshold + ") must not be negative");
        }
        if (lower >= threshold) {
            throw new InvalidConfig(resource + "AllocatableEvictLowerPercent (" + lower + ") must be below "
                    + resource + "AllocatableEvictThresholdPercent (" + threshold + ")");
        }
        Long priority = t.allocatableEvictPriorityThreshold();
        if (priority == null) {
            throw new InvalidConfig("allocatableEvictPriorityThreshold is not set");
        }
        if (priority > MemoryEvict.MID_PRIORITY_MAX) {
            throw new InvalidConfig("allocatableEvictPriorityThreshold (" + priority + ") must be at most "
                    + MemoryEvict.MID_PRIORITY_MAX + ": koord-prod pods are never evicted this way");
        }
        return priority;
    }

    /** Runs the area's round over the planned strategies, in their order, and reports each one. */
    static EvictionDecision decide(Map<String, Planned> planned, List<String> explain) {
        List<EvictionTask> tasks = new ArrayList<>();
        planned.forEach((gate, p) -> {
            if (!p.release().isEmpty()) {
                tasks.add(new EvictionTask(gate, p.target(), p.release(), p.candidates(), p.releasedBy()));
            }
        });
        EvictionRound.Result round = EvictionRound.run(tasks);
        Map<String, EvictionDecision.Strategy> strategies = new LinkedHashMap<>();
        planned.forEach((gate, p) -> {
            List<Victim> victims = round.victimsByGate().getOrDefault(gate, List.of());
            strategies.put(gate, new EvictionDecision.Strategy(PriorityEvictions.positive(p.release()),
                    p.candidates().stream().map(Candidate::victim).toList(), victims));
            if (!victims.isEmpty()) {
                explain.add(gate + " evicts " + victims.stream().map(Victim::toString).toList());
            }
        });
        return new EvictionDecision(strategies, round.victims(), explain);
    }
}
