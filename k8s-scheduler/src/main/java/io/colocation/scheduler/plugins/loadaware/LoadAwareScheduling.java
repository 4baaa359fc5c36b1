package io.colocation.scheduler.plugins.loadaware;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import io.colocation.api.Quantities;
import io.colocation.api.PriorityClass;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.FilterPlugin;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.ScorePlugin;
import io.colocation.scheduler.framework.Status;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Koordinator's {@code LoadAwareScheduling} (KOORDINATOR-COMPAT.md §9): keeps pods off nodes whose measured load,
 * plus the estimated load of pods placed since the last NodeMetric, plus this pod's estimate, is over a threshold,
 * and prefers the least loaded nodes. No NormalizeScore.
 */
public final class LoadAwareScheduling implements FilterPlugin, ScorePlugin {
    public static final String NAME = "LoadAwareScheduling";
    static final String RAW_ALLOCATABLE = "node.koordinator.sh/raw-allocatable";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A node whose NodeMetric exists but cannot be read: filtered like an expired one, scored 0. */
    static final String UNREADABLE = "node(s) nodeMetric unreadable";
    private static final io.colocation.api.log.DistinctWarnings UNREADABLE_NAMED =
            new io.colocation.api.log.DistinctWarnings(org.slf4j.LoggerFactory.getLogger(LoadAwareScheduling.class));

    /**
     * Keys of what this plugin keeps with a NodeInfo: the parsed metric and the allocatable (any args), the assigned
     * load (these args).
     */
    private static final Object METRIC_KEY = NAME + "/metric";
    private static final Object ALLOCATABLE_KEY = NAME + "/allocatable";
    private final Object loadKey = new Object();
    private final Object thresholdsKey = new Object();
    private final LoadAwareArgs args;
    /** {@code args.resourceVector()}, built once: it is read on every node of every cycle. */
    private final List<String> resourceVector;
    private final long weightSum;
    /** The keys of the node's base usage under these args, for the filter and the score, built once as well. */
    private final BaseKey filterBase;
    private final BaseKey scoreBase;
    private final BaseKey prodBase;

    public LoadAwareScheduling(LoadAwareArgs args) {
        this.args = args;
        this.resourceVector = args.resourceVector();
        this.weightSum = args.resourceWeights().values().stream().mapToLong(Long::longValue).sum();
        this.filterBase = baseKey(args.aggregated().filters(), args.aggregated().usageAggregatedDuration(),
                args.aggregated().usageAggregationType());
        this.scoreBase = baseKey(args.aggregated().scores(), args.aggregated().scoreAggregatedDuration(),
                args.aggregated().scoreAggregationType());
        this.prodBase = baseKey(false, null, "prod");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        if (pod.ownedByDaemonSet()) {
            return Status.SUCCESS;
        }
        LoadAwareArgs a = node.annotations().containsKey(UsageThresholdsAnnotation.KEY)
                ? node.derived(thresholdsKey, () -> UsageThresholdsAnnotation.apply(args, node.annotations())) : args;
        boolean prod = !a.prodUsageThresholds().isEmpty() && pod.priorityClass() == PriorityClass.PROD;
        boolean aggregated = !prod && a.aggregated().filters();
        Map<String, Long> thresholds = prod ? a.prodUsageThresholds()
                : aggregated ? a.aggregated().usageThresholds() : a.usageThresholds();
        if (allZero(thresholds)) {
            return Status.SUCCESS;
        }
        MetricRead read = read(node);
        if (read == null) {
            return Status.SUCCESS;
        }
        if (read.error() != null) {
            // Unusable as an expired one is (and under the same settings); the reason is in the log and in explain.
            return a.filterExpiredNodeMetrics() && !a.enableScheduleWhenNodeMetricsExpired()
                    ? Status.unschedulable(UNREADABLE) : Status.SUCCESS;
        }
        NodeMetricView metric = read.view();
        if (a.filterExpiredNodeMetrics() && metric.expired(state.snapshot().now(), a.nodeMetricExpirationSeconds())) {
            return a.enableScheduleWhenNodeMetricsExpired() ? Status.SUCCESS : Status.unschedulable("node(s) nodeMetric expired");
        }
        if (metric.nodeUsage() == null) {
            return Status.SUCCESS;
        }
        ToLongFunction<String> used = prod ? prodUsed(state, pod, node, metric)
                : used(state, pod, node, metric, a == args ? filterBase : baseKey(aggregated,
                        a.aggregated().usageAggregatedDuration(), a.aggregated().usageAggregationType()));
        Map<String, Long> allocatable = allocatable(node);
        for (String r : a == args ? resourceVector : a.resourceVector()) {
            long threshold = thresholds.getOrDefault(r, 0L);
            long alloc = allocatable.getOrDefault(r, 0L);
            if (threshold == 0 || alloc == 0) {
                continue;
            }
            long percent = Math.round((double) used.applyAsLong(r) / alloc * 100);
            if (percent > threshold) {
                return Status.unschedulable("node(s) " + r + (aggregated ? " aggregated" : "") + " usage exceed threshold");
            }
        }
        return Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        long dominant = args.dominantResourceWeight();
        MetricRead read = weightSum == 0 && dominant == 0 ? null : read(node);
        if (read == null || read.error() != null) {
            return 0;
        }
        NodeMetricView metric = read.view();
        if (metric.expired(state.snapshot().now(), args.nodeMetricExpirationSeconds()) || metric.nodeUsage() == null) {
            return 0;
        }
        boolean prod = args.scoreAccordingProdUsage() && pod.priorityClass() == PriorityClass.PROD;
        ToLongFunction<String> used = prod ? prodUsed(state, pod, node, metric) : used(state, pod, node, metric, scoreBase);
        Map<String, Long> allocatable = allocatable(node);
        long total = 0;
        long dom = MAX_NODE_SCORE;
        for (String r : resourceVector) {
            long alloc = allocatable.getOrDefault(r, 0L);
            long u = used.applyAsLong(r);
            long s = alloc == 0 || u > alloc ? 0 : (alloc - u) * MAX_NODE_SCORE / alloc;
            total += s * args.resourceWeights().getOrDefault(r, 0L);
            dom = Math.min(dom, s);
        }
        if (dominant > 0) {
            total += dom * dominant;
        }
        return total / (weightSum + dominant);
    }

    /** A plain loop: this runs on every node of every cycle, where a stream's set-up costs more than the test. */
    private static boolean allZero(Map<String, Long> thresholds) {
        for (long t : thresholds.values()) {
            if (t != 0) {
                return false;
            }
        }
        return true;
    }

    /** What is used of a resource on the node with the incoming pod: the node's base plus the pod's estimate. */
    private static ToLongFunction<String> plus(Map<String, Long> base, Map<String, Long> incoming) {
        return r -> base.getOrDefault(r, 0L) + incoming.getOrDefault(r, 0L);
    }

    /** Which base usage: the node's, or its aggregated usage over {@code duration} by {@code type}. */
    private record BaseKey(Object plugin, boolean aggregated, Duration duration, String type) {
    }

    private BaseKey baseKey(boolean aggregated, Duration duration, String type) {
        return new BaseKey(loadKey, aggregated, duration, type);
    }

    /** base usage (node or aggregated) + what the metric misses of assigned pods + this pod's estimate. */
    private ToLongFunction<String> used(CycleState state, PodInfo pod, NodeInfo node, NodeMetricView metric, BaseKey key) {
        // The node's part is the same for every incoming pod: kept with the node's version.
        Map<String, Long> base = node.derived(key, () -> {
            AssignedLoad load = load(node, metric);
            if (!key.aggregated()) {
                return AssignedLoad.sum(metric.nodeUsage(), load.delta(), Map.of());
            }
            Map<String, Long> agg = metric.aggregatedUsage(key.duration(), key.type());
            return agg == null ? load.estimated() : AssignedLoad.sum(agg, load.delta(), Map.of());
        });
        return plus(base, estimate(state, pod));
    }

    private ToLongFunction<String> prodUsed(CycleState state, PodInfo pod, NodeInfo node, NodeMetricView metric) {
        Map<String, Long> base = node.derived(prodBase, () -> {
            AssignedLoad load = load(node, metric);
            return AssignedLoad.sum(load.prodUsage(), load.prodDelta(), Map.of());
        });
        return plus(base, estimate(state, pod));
    }

    /** The incoming pod's estimate: the same on every node, so computed once a cycle. */
    private Map<String, Long> estimate(CycleState state, PodInfo pod) {
        return state.computeIfAbsent(NAME + "/estimate", k -> PodEstimator.estimate(pod, args));
    }

    /** What the node's pods add to its metric under this plugin's args; depends on the node alone, so kept with it. */
    private AssignedLoad load(NodeInfo node, NodeMetricView metric) {
        return node.derived(loadKey, () -> AssignedLoad.of(node, metric, args));
    }

    /** The node's NodeMetric as this plugin reads it, or why it cannot be read. */
    private record MetricRead(NodeMetricView view, String error) {
    }

    /** Null when the node has no NodeMetric; kept with the node's version. */
    private static MetricRead read(NodeInfo node) {
        if (node.nodeMetric() == null && node.nodeMetricError() == null) {
            return null;
        }
        return node.derived(METRIC_KEY, () -> {
            if (node.nodeMetricError() != null) {
                return new MetricRead(null, node.nodeMetricError());
            }
            try {
                return new MetricRead(NodeMetricView.of(node.nodeMetric(), "NodeMetric " + node.name() + ": "), null);
            } catch (InvalidInputException e) {
                // named once per cause; the node is filtered or scored neutral meanwhile
                UNREADABLE_NAMED.warn("NodeMetric " + node.name(), "unreadable, the node is treated as if its metric expired: "
                        + e.getMessage());
                return new MetricRead(null, e.getMessage());
            }
        });
    }

    /** {@code status.allocatable} overlaid by {@code node.koordinator.sh/raw-allocatable} when present and readable. */
    static Map<String, Long> allocatable(NodeInfo node) {
        String raw = node.annotations().get(RAW_ALLOCATABLE);
        return raw == null ? node.allocatable() : node.derived(ALLOCATABLE_KEY, () -> overlaid(node, raw));
    }

    private static Map<String, Long> overlaid(NodeInfo node, String raw) {
        Map<String, Long> out = new LinkedHashMap<>(node.allocatable());
        try {
            JsonNode m = JSON.readTree(raw);
            for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                String q = e.getValue().asText();
                out.put(e.getKey(), e.getKey().equals("cpu") ? Quantities.milliValue(q, RAW_ALLOCATABLE)
                        : Quantities.value(q, RAW_ALLOCATABLE));
            }
        } catch (JsonProcessingException | InvalidInputException | RuntimeException e) {
            return node.allocatable(); // Koordinator falls back to status.allocatable
        }
        return out;
    }
}
