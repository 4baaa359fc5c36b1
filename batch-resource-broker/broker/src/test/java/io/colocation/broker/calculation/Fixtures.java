package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import io.colocation.api.PriorityClass;
import io.colocation.api.QoSClass;
import io.colocation.model.config.ColocationStrategy;
import java.time.Instant;
import java.util.List;

/** Builders for hand-computed cases: CPU in cores, memory in G (10^9 bytes). */
final class Fixtures {
    static final long G = 1_000_000_000L;
    static final Instant NOW = Instant.parse("2026-11-21T08:05:00Z");
    static final Instant FRESH = Instant.parse("2026-11-21T08:00:00Z");

    private Fixtures() {
    }

    static Resources r(double cores, double gigabytes) {
        return new Resources(Math.round(cores * 1000), Math.round(gigabytes * G));
    }

    static PodState pod(String name, PriorityClass priority, QoSClass qos, Resources request) {
        return new PodState("default", name, true, priority, qos, request);
    }

    static NodeMetricState.PodUsage usage(String name, Resources usage) {
        return new NodeMetricState.PodUsage("default", name, usage, PriorityClass.NONE);
    }

    static NodeState node(Resources capacity, List<PodState> pods) {
        return new NodeState("n1", capacity, capacity, Resources.ZERO, null, null, pods);
    }

    static NodeMetricState metric(Resources systemUsage, List<NodeMetricState.PodUsage> pods) {
        return new NodeMetricState(FRESH, r(50, 55), systemUsage, pods, List.of(), null);
    }

    /** Koordinator's defaults with colocation enabled and the given reclaim thresholds. */
    static ColocationStrategy strategy(long cpuPercent, long memoryPercent) {
        return ColocationStrategy.defaults().overlay(new ColocationStrategy(true, null, null, null, null, cpuPercent,
                null, memoryPercent, null, null, null, null, null, null, null, null, null, null, null, null));
    }

    /** docs/koordinator-compatibility.md §2.12: podA LS, podB BE, podC Guaranteed Pending; podD Succeeded is left out. */
    static NodeState workedNode() {
        return node(r(100, 120), List.of(
                pod("podA", PriorityClass.PROD, QoSClass.LS, r(20, 20)),
                pod("podB", PriorityClass.BATCH, QoSClass.BE, r(0, 0)),
                pod("podC", PriorityClass.PROD, QoSClass.LSR, r(20, 40))));
    }

    static NodeMetricState workedMetric() {
        return metric(r(7, 12), List.of(usage("podA", r(11, 11)), usage("podB", r(10, 10)), usage("podC", r(22, 22))));
    }
}
