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
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Koordinator's {@code LoadAwareScheduling} (docs/koordinator-compatibility.md §9): keeps pods off nodes whose measured load,
 * plus the estimated load of pods placed since the last NodeMetric, plus this pod's estimate, is over a threshold,
 * and prefers the least loaded nodes. No NormalizeScore.
 */
public final class LoadAwareScheduling implements FilterPlugin, ScorePlugin {
    public static final String NAME = "LoadAwareScheduling";
    static final String RAW_ALLOCATABLE = "node.koordinator.sh/raw-allocatable";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A node whose NodeMetric exists but cannot be read: filtered like an expired one, scored 0. */
    static final String UNREADABLE = "node(s) nodeMetric unreadable";
    private static final io.colocation.helpers.log.DistinctWarnings UNREADABLE_NAMED =
            new io.colocation.helpers.log.DistinctWarnings(org.slf4j.LoggerFactory.getLogger(LoadAwareScheduling.class));

    private static final Status EXPIRED = Status.unschedulable("node(s) nodeMetric expired");
    private static final Status UNREADABLE_STATUS = Status.unschedulable(UNREADABLE);
    /** What this plugin keeps with a NodeInfo: the parsed metric (any args), the node's load (these args). */
    private static final Object METRIC_KEY = NAME + "/metric";
    private final Object loadKey = new Object();
    private final LoadAwareArgs args;
    /** {@code args.resourceVector()}, built once, and each resource's score weight in its order. */
    private final List<String> resourceVector;
    private final long[] weights;
    private final long weightSum;

    public LoadAwareScheduling(LoadAwareArgs args) {
        this.args = args;
        this.resourceVector = args.resourceVector();
        this.weights = resourceVector.stream().mapToLong(r -> args.resourceWeights().getOrDefault(r, 0L)).toArray();
        this.weightSum = args.resourceWeights().values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        PodLoad incoming = estimate(state, pod);
        if (incoming.daemonSet()) {
            return Status.SUCCESS;
        }
        NodeLoad load = load(node);
        boolean prod = load.prodFilter != null && pod.priorityClass() == PriorityClass.PROD;
        NodeLoad.Limits limits = prod ? load.prodFilter : load.filter;
        if (limits.allZero() || load.metric == NodeLoad.Metric.NONE) {
            return Status.SUCCESS;
        }
        if (load.metric == NodeLoad.Metric.UNREADABLE) {
            // Unusable as an expired one is (and under the same settings); the reason is in the log and in explain.
            return args.filterExpiredNodeMetrics() && !args.enableScheduleWhenNodeMetricsExpired() ? UNREADABLE_STATUS
                    : Status.SUCCESS;
        }
        if (args.filterExpiredNodeMetrics() && load.expired(state.snapshot().now())) {
            return args.enableScheduleWhenNodeMetricsExpired() ? Status.SUCCESS : EXPIRED;
        }
        if (!load.hasUsage) {
            return Status.SUCCESS;
        }
        long[] table = limits.table();
        long[] estimate = incoming.vector();
        for (int k = 0, t = 0; t < table.length; k++, t += NodeLoad.LIMIT_STRIDE) {
            int index = (int) table[t + 3];
            long u = table[t] + (index >= 0 ? estimate[index] : incoming.byResource().getOrDefault(limits.resources()[k], 0L));
            long percent = Math.round((double) u / table[t + 1] * 100);
            if (percent > table[t + 2]) {
                return limits.rejections()[k];
            }
        }
        return Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        long dominant = args.dominantResourceWeight();
        if (weightSum == 0 && dominant == 0) {
            return 0;
        }
        NodeLoad load = load(node);
        if (load.metric != NodeLoad.Metric.READ || load.expired(state.snapshot().now()) || !load.hasUsage) {
            return 0;
        }
        boolean prod = args.scoreAccordingProdUsage() && pod.priorityClass() == PriorityClass.PROD;
        long[] table = load.score;
        long[] estimate = estimate(state, pod).vector();
        int used = prod ? 2 : 1;
        long total = 0;
        long dom = MAX_NODE_SCORE;
        for (int i = 0, t = 0; i < estimate.length; i++, t += NodeLoad.SCORE_STRIDE) {
            long alloc = table[t];
            long u = table[t + used] + estimate[i];
            long s = alloc == 0 || u > alloc ? 0 : (alloc - u) * MAX_NODE_SCORE / alloc;
            total += s * weights[i];
            dom = Math.min(dom, s);
        }
        if (dominant > 0) {
            total += dom * dominant;
        }
        return total / (weightSum + dominant);
    }

    /**
     * The incoming pod's estimate, the same on every node, so worked out once a cycle: by resource and in the order of
     * the plugin's vector.
     */
    private record PodLoad(boolean daemonSet, Map<String, Long> byResource, long[] vector) {
    }

    private PodLoad estimate(CycleState state, PodInfo pod) {
        return state.computeIfAbsent(NAME + "/estimate", k -> {
            Map<String, Long> e = PodEstimator.estimate(pod, args);
            return new PodLoad(pod.ownedByDaemonSet(), e,
                    resourceVector.stream().mapToLong(r -> e.getOrDefault(r, 0L)).toArray());
        });
    }

    /** The node as this plugin reads it, kept with the node's version: a pod's cycle only adds its own estimate. */
    private NodeLoad load(NodeInfo node) {
        return node.derived(loadKey, () -> {
            MetricRead read = read(node);
            NodeLoad.Metric metric = read == null ? NodeLoad.Metric.NONE
                    : read.error() != null ? NodeLoad.Metric.UNREADABLE : NodeLoad.Metric.READ;
            return NodeLoad.of(node, args, resourceVector, metric, read == null ? null : read.view(), allocatable(node));
        });
    }

    /** The node's NodeMetric as this plugin reads it, or why it cannot be read. */
    private record MetricRead(NodeMetricView view, String error) {
    }

    /** Null when the node has no NodeMetric; parsed once per NodeMetric. */
    private static MetricRead read(NodeInfo node) {
        if (node.nodeMetric() == null && node.nodeMetricError() == null) {
            return null;
        }
        return node.derivedFromMetric(METRIC_KEY, () -> {
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
        return raw == null ? node.allocatable() : overlaid(node, raw); // read once per node version, into its NodeLoad
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
