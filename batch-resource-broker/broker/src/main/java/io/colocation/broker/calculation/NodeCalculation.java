package io.colocation.broker.calculation;

import io.colocation.api.InvalidInputException;
import io.colocation.broker.calculation.NodeMetricState;
import io.colocation.broker.calculation.NodeReclaim;
import io.colocation.broker.calculation.NodeResourceCalculator;
import io.colocation.broker.calculation.NodeState;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.config.ColocationStrategy;
import io.colocation.model.config.NodeStrategyResolver;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One node's Batch and Mid from its Kubernetes objects: strategy resolution, input reading and the
 * calculation. The single per-node decision behind both {@code colocation calc} and the broker's pass.
 */
public final class NodeCalculation {
    private NodeCalculation() {
    }

    /** The node's NodeMetric as read: its state, or why there is none to use (absent or unreadable). */
    public record Metric(NodeMetricState state, String unusable) {
        public static Metric of(NodeMetricState state) {
            return new Metric(state, null);
        }

        /** No usable NodeMetric; {@code why} completes "…: Batch and Mid degrade to absent". */
        public static Metric unusable(String why) {
            return new Metric(null, why);
        }
    }

    /**
     * What was decided. {@code invalidInput} is set when the node's own inputs (status, annotations, pods)
     * cannot be read; then {@code reclaim} is null and the caller decides (calc refuses, the broker freezes).
     *
     * @param notes   what was ignored or assumed while reading, one line each
     * @param explain the strategy, the notes and the calculation, one line each
     */
    public record Outcome(ColocationStrategy strategy, NodeReclaim reclaim, Resources capacity, Resources nodeUsage,
            String invalidInput, List<String> notes, List<String> explain) {
    }

    public static Outcome calculate(ColocationConfig config, Node node, List<Pod> pods, Metric metric, Instant now) {
        return calculate(config, node, pods, metric, now, NodeStateReader::pod);
    }

    /** As above, each pod read by {@code reader}. */
    public static Outcome calculate(ColocationConfig config, Node node, List<Pod> pods, Metric metric, Instant now,
            NodeStateReader.PodReader reader) {
        NodeStrategyResolver.Resolved strategy = NodeStrategyResolver.resolve(config, node.getMetadata().getLabels(),
                node.getMetadata().getAnnotations());
        List<String> notes = new ArrayList<>(strategy.notes());
        List<String> explain = new ArrayList<>();
        explain.add("strategy: " + strategy.source() + describe(strategy.strategy()));
        NodeState state;
        try {
            state = NodeStateReader.node(node, pods, notes, reader);
        } catch (InvalidInputException e) {
            explain.addAll(notes);
            return new Outcome(strategy.strategy(), null, Resources.ZERO, null, e.getMessage(), List.copyOf(notes), explain);
        }
        if (metric.state() == null) {
            notes.add(metric.unusable() + ": Batch and Mid degrade to absent");
        }
        explain.addAll(notes);
        NodeReclaim reclaim = NodeResourceCalculator.calculate(strategy.strategy(), state, metric.state(), now);
        explain.addAll(reclaim.explain());
        return new Outcome(strategy.strategy(), new NodeReclaim(reclaim.name(), reclaim.allocatable(), reclaim.originBatch(),
                reclaim.degraded(), List.copyOf(explain)), state.capacity(),
                metric.state() == null ? null : metric.state().nodeUsage(), null, List.copyOf(notes), List.copyOf(explain));
    }

    /** The last strategy described and its text: nodes of one cluster share their strategy, and every pass describes each. */
    private record Described(ColocationStrategy strategy, String text) {
    }

    private static volatile Described lastDescribed;

    private static String describe(ColocationStrategy s) {
        Described last = lastDescribed;
        if (last != null && (last.strategy() == s || last.strategy().equals(s))) {
            return last.text();
        }
        String text = describeNow(s);
        lastDescribed = new Described(s, text);
        return text;
    }

    private static String describeNow(ColocationStrategy s) {
        return " (enable=" + s.isEnabled() + ", cpuReclaimThresholdPercent=" + s.cpuReclaimThresholdPercent()
                + ", cpuCalculatePolicy=" + s.cpuCalculatePolicy().json() + ", memoryReclaimThresholdPercent="
                + s.memoryReclaimThresholdPercent() + ", memoryCalculatePolicy=" + s.memoryCalculatePolicy().json()
                + ", degradeTimeMinutes=" + s.degradeTimeMinutes()
                + (s.batchCPUThresholdPercent() == null ? "" : ", batchCPUThresholdPercent=" + s.batchCPUThresholdPercent())
                + (s.batchMemoryThresholdPercent() == null ? "" : ", batchMemoryThresholdPercent=" + s.batchMemoryThresholdPercent())
                + (s.isMidStatic() ? ", midReclaimMode=static" : "") + ")";
    }
}
