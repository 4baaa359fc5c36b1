package io.colocation.scheduler.plugins.loadaware;

import io.colocation.api.PriorityClass;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Snapshots;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * The load of the pods already on a node that its NodeMetric may not show yet (docs/koordinator-compatibility.md §9.3): a pod
 * placed within the last report interval before the metric, still inside its estimation window, or not reported
 * at all counts max(0, estimate − reported usage) on top of the metric.
 *
 * @param delta     what the metric misses, per resource
 * @param estimated every assigned pod's estimate (used when the aggregated usage asked for is absent)
 * @param prodUsage reported usage of pods reported as koord-prod (+ system usage if configured)
 * @param prodDelta the prod pods' share of {@code delta}; a prod pod not reported as prod counts in full
 */
record AssignedLoad(Map<String, Long> delta, Map<String, Long> estimated, Map<String, Long> prodUsage,
        Map<String, Long> prodDelta) {

    static AssignedLoad of(NodeInfo node, NodeMetricView metric, LoadAwareArgs args) {
        Map<String, Long> delta = new TreeMap<>();
        Map<String, Long> estimated = new TreeMap<>();
        Map<String, Long> prodUsage = new TreeMap<>();
        Map<String, Long> prodDelta = new TreeMap<>();
        Instant updated = metric.updateTime();
        for (PodInfo p : node.pods()) {
            Map<String, Long> e = PodEstimator.estimate(p, args);
            e.forEach((r, v) -> estimated.merge(r, v, Long::sum));
            NodeMetricView.PodEntry entry = metric.pods().get(p.key());
            Map<String, Long> u = entry == null ? Map.of() : entry.usage();
            boolean estimate = u.isEmpty() || updated == null
                    || p.placedAt().isAfter(updated.minusSeconds(metric.reportIntervalSeconds()));
            Instant deadline = deadline(p, args);
            if (deadline != null && (updated == null || deadline.isAfter(updated))) {
                estimate = true;
            }
            boolean prod = p.priorityClass() == PriorityClass.PROD;
            boolean reportedProd = entry != null && PriorityClass.PROD.koordName().equals(entry.priority());
            if (prod && reportedProd) {
                u.forEach((r, v) -> prodUsage.merge(r, v, Long::sum));
            }
            for (Map.Entry<String, Long> er : e.entrySet()) {
                long missing = Math.max(0, er.getValue() - u.getOrDefault(er.getKey(), 0L));
                if (estimate) {
                    delta.merge(er.getKey(), missing, Long::sum);
                }
                if (prod && !reportedProd) {
                    prodDelta.merge(er.getKey(), er.getValue(), Long::sum);
                } else if (prod && estimate) {
                    prodDelta.merge(er.getKey(), missing, Long::sum);
                }
            }
        }
        if (args.prodUsageIncludeSys()) {
            metric.systemUsage().forEach((r, v) -> prodUsage.merge(r, v, Long::sum));
        }
        return new AssignedLoad(delta, estimated, prodUsage, prodDelta);
    }

    /** Until when a placed pod is estimated regardless of the metric: after initialization, else after placement. */
    private static Instant deadline(PodInfo p, LoadAwareArgs args) {
        Long afterInitialized = args.estimatedSecondsAfterInitialized();
        if (afterInitialized != null && afterInitialized > 0 && p.initializedAt() != null) {
            return p.initializedAt().plusSeconds(afterInitialized);
        }
        Long afterScheduled = args.estimatedSecondsAfterPodScheduled();
        if (afterScheduled != null && afterScheduled > 0) {
            return p.placedAt().plusSeconds(afterScheduled);
        }
        return null;
    }

    static Map<String, Long> sum(Map<String, Long> a, Map<String, Long> b, Map<String, Long> c) {
        Map<String, Long> out = new TreeMap<>(a);
        b.forEach((r, v) -> out.merge(r, v, Long::sum));
        c.forEach((r, v) -> out.merge(r, v, Long::sum));
        return Snapshots.hashedInOrder(out);
    }
}
