package io.colocation.scheduler.plugins.loadaware;

import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.Status;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything LoadAwareScheduling reads of one node, worked out once per version of the node (a new NodeMetric, a pod
 * assumed, bound, forgotten or gone) instead of once per pod: whether its metric is there and readable, when it
 * expires, and per resource the usage a filter or a score starts from (the metric's figure plus what it misses of the
 * assigned pods), the allocatable and the threshold. A pod's cycle then adds only its own estimate, in plain arrays:
 * at 5,000 nodes the search visits hundreds of nodes a pod, and map lookups and parsing per visit were most of its CPU.
 */
final class NodeLoad {
    /** What the node's NodeMetric is to this plugin. */
    enum Metric { NONE, UNREADABLE, READ }

    final Metric metric;
    /**
     * When the metric stops counting ({@code updateTime} + {@code nodeMetricExpirationSeconds}) as epoch second and
     * nano, kept as numbers: read on every visit, an Instant would be one more memory load. Long.MIN_VALUE: no update
     * time, expired from the start.
     */
    private final long expiresAtSecond;
    private final int expiresAtNano;
    /** {@code status.nodeMetric} is set: without it nothing is filtered and the score is 0. */
    final boolean hasUsage;
    /** The filter for a pod that is not koord-prod, or for any pod when there are no prod thresholds. */
    final Limits filter;
    /** The filter for a koord-prod pod; null when the node's args have no prod thresholds. */
    final Limits prodFilter;
    /**
     * For the score, {@value #SCORE_STRIDE} numbers per resource of the plugin's vector, in its order: allocatable,
     * usage, prod usage (both without the incoming pod; 0 unless the metric is read). One array, so a visit reads one
     * place in memory.
     */
    final long[] score;
    static final int SCORE_STRIDE = 3;

    /**
     * One filter's rule on this node, for the resources it checks (those with a non-zero threshold and allocatable):
     * {@value #LIMIT_STRIDE} numbers each in {@code table}, the usage without the incoming pod, the allocatable, the
     * threshold, and where the pod's estimate of it is in the plugin's vector (-1: look it up by name); the rejection
     * naming each.
     *
     * @param allZero every threshold is 0: the filter passes before looking at the metric
     */
    record Limits(boolean allZero, String[] resources, long[] table, Status[] rejections) {
    }

    static final int LIMIT_STRIDE = 4;

    private NodeLoad(Metric metric, Instant expiresAt, boolean hasUsage, Limits filter, Limits prodFilter, long[] score) {
        this.metric = metric;
        this.expiresAtSecond = expiresAt == null ? Long.MIN_VALUE : expiresAt.getEpochSecond();
        this.expiresAtNano = expiresAt == null ? 0 : expiresAt.getNano();
        this.hasUsage = hasUsage;
        this.filter = filter;
        this.prodFilter = prodFilter;
        this.score = score;
    }

    /**
     * The node under the plugin's {@code args} and their {@code vector}; {@code view} is the parsed NodeMetric (null
     * when there is none or it is unreadable, {@code metric} says which).
     */
    static NodeLoad of(NodeInfo node, LoadAwareArgs args, List<String> vector, Metric metric, NodeMetricView view,
            Map<String, Long> allocatable) {
        LoadAwareArgs a = node.annotations().containsKey(UsageThresholdsAnnotation.KEY)
                ? UsageThresholdsAnnotation.apply(args, node.annotations()) : args;
        boolean read = metric == Metric.READ && view.nodeUsage() != null;
        AssignedLoad load = read ? AssignedLoad.of(node, view, args) : null;
        List<String> filterVector = a == args ? vector : a.resourceVector();
        boolean aggregated = a.aggregated().filters();
        // The metric's usage plus what it misses of the assigned pods: what the filter and the score start from unless
        // their aggregation is configured.
        Map<String, Long> usage = read ? AssignedLoad.sum(view.nodeUsage(), load.delta(), Map.of()) : null;
        Limits filter = limits(aggregated ? a.aggregated().usageThresholds() : a.usageThresholds(), filterVector, vector,
                read ? (aggregated ? base(view, load, a.aggregated().usageAggregatedDuration(), a.aggregated().usageAggregationType())
                        : usage) : null,
                allocatable, aggregated ? " aggregated" : "");
        Map<String, Long> prodBase = read ? AssignedLoad.sum(load.prodUsage(), load.prodDelta(), Map.of()) : null;
        Limits prodFilter = a.prodUsageThresholds().isEmpty() ? null
                : limits(a.prodUsageThresholds(), filterVector, vector, prodBase, allocatable, "");
        long[] score = new long[vector.size() * SCORE_STRIDE];
        if (read) {
            LoadAwareArgs.Aggregated agg = args.aggregated();
            Map<String, Long> scoreBase = agg.scores() ? base(view, load, agg.scoreAggregatedDuration(), agg.scoreAggregationType())
                    : usage;
            for (int i = 0; i < vector.size(); i++) {
                score[i * SCORE_STRIDE + 1] = scoreBase.getOrDefault(vector.get(i), 0L);
                score[i * SCORE_STRIDE + 2] = prodBase.getOrDefault(vector.get(i), 0L);
            }
        }
        for (int i = 0; i < vector.size(); i++) {
            score[i * SCORE_STRIDE] = allocatable.getOrDefault(vector.get(i), 0L);
        }
        return new NodeLoad(metric, view == null ? null : expiry(view.updateTime(), args.nodeMetricExpirationSeconds()),
                view != null && view.nodeUsage() != null, filter, prodFilter, score);
    }

    /** Expired at {@code now}: no update time, or at least the expiration old. */
    boolean expired(Instant now) {
        long second = now.getEpochSecond();
        return second > expiresAtSecond || second == expiresAtSecond && now.getNano() >= expiresAtNano;
    }

    /** The aggregated usage asked for plus what the metric misses; without that aggregation, every pod's estimate. */
    private static Map<String, Long> base(NodeMetricView view, AssignedLoad load, java.time.Duration duration, String type) {
        Map<String, Long> agg = view.aggregatedUsage(duration, type);
        return agg == null ? load.estimated() : AssignedLoad.sum(agg, load.delta(), Map.of());
    }

    private static Instant expiry(Instant updated, long seconds) {
        if (updated == null) {
            return null;
        }
        try {
            return updated.plusSeconds(seconds);
        } catch (DateTimeException | ArithmeticException e) {
            return Instant.MAX; // an expiration past the calendar's end: never
        }
    }

    private static Limits limits(Map<String, Long> thresholds, List<String> resources, List<String> vector,
            Map<String, Long> used, Map<String, Long> allocatable, String aggregated) {
        boolean allZero = true;
        for (long t : thresholds.values()) {
            allZero &= t == 0;
        }
        int n = 0;
        for (String r : resources) {
            if (thresholds.getOrDefault(r, 0L) != 0 && allocatable.getOrDefault(r, 0L) != 0) {
                n++;
            }
        }
        String[] names = new String[n];
        long[] table = new long[n * LIMIT_STRIDE];
        Status[] rejections = new Status[n];
        int k = 0;
        for (String r : resources) {
            long threshold = thresholds.getOrDefault(r, 0L);
            long alloc = allocatable.getOrDefault(r, 0L);
            if (threshold == 0 || alloc == 0) {
                continue;
            }
            names[k] = r;
            table[k * LIMIT_STRIDE] = used == null ? 0 : used.getOrDefault(r, 0L);
            table[k * LIMIT_STRIDE + 1] = alloc;
            table[k * LIMIT_STRIDE + 2] = threshold;
            table[k * LIMIT_STRIDE + 3] = vector.indexOf(r);
            rejections[k] = Status.sharedUnschedulable("node(s) " + r + aggregated + " usage exceed threshold");
            k++;
        }
        return new Limits(allZero, names, table, rejections);
    }
}
