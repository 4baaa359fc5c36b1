package io.colocation.scheduler.plugins.loadaware;

import io.colocation.api.InvalidInputException;
import io.colocation.api.Quantities;
import io.colocation.model.GoDuration;
import io.colocation.model.KubeTime;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.ResourceMap;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A NodeMetric as LoadAwareScheduling reads it, quantities parsed (cpu in milli-cores, others as values).
 *
 * @param updateTime      {@code status.updateTime}; null when unset
 * @param nodeUsage       {@code status.nodeMetric.nodeUsage}; null when {@code status.nodeMetric} is unset
 * @param aggregated      duration → aggregation type → usage
 * @param pods            {@code namespace/name} → the pod's entry
 */
public record NodeMetricView(Instant updateTime, long reportIntervalSeconds, Map<String, Long> nodeUsage,
        Map<Duration, Map<String, Map<String, Long>>> aggregated, Map<String, Long> systemUsage, Map<String, PodEntry> pods) {
    static final long DEFAULT_REPORT_INTERVAL_SECONDS = 60;

    /** A pod's reported usage and the priority class it was reported with. */
    public record PodEntry(Map<String, Long> usage, String priority) {
    }

    /** Parses and checks the NodeMetric; {@code where} ("file: NodeMetric n1: ") names it in errors. */
    public static NodeMetricView of(NodeMetric nm, String where) throws InvalidInputException {
        NodeMetric.Status st = nm.getStatus();
        Long interval = nm.getSpec() == null || nm.getSpec().metricCollectPolicy() == null ? null
                : nm.getSpec().metricCollectPolicy().reportIntervalSeconds();
        long report = interval == null || interval <= 0 ? DEFAULT_REPORT_INTERVAL_SECONDS : interval;
        if (st == null) {
            return new NodeMetricView(null, report, null, Map.of(), Map.of(), Map.of());
        }
        Instant updated = KubeTime.parseOptional(st.updateTime(), where + "status.updateTime");
        Map<String, Long> usage = null;
        Map<Duration, Map<String, Map<String, Long>>> aggregated = new LinkedHashMap<>();
        Map<String, Long> system = Map.of();
        if (st.nodeMetric() != null) {
            usage = resources(st.nodeMetric().nodeUsage(), where + "status.nodeMetric.nodeUsage.resources");
            system = resources(st.nodeMetric().systemUsage(), where + "status.nodeMetric.systemUsage.resources");
            List<NodeMetric.AggregatedUsage> aggs = st.nodeMetric().aggregatedNodeUsages() == null ? List.of()
                    : st.nodeMetric().aggregatedNodeUsages();
            for (int i = 0; i < aggs.size(); i++) {
                String at = where + "status.nodeMetric.aggregatedNodeUsages[" + i + "]";
                NodeMetric.AggregatedUsage a = aggs.get(i);
                Duration d = a.duration() == null ? Duration.ZERO : GoDuration.parse(a.duration(), at + ".duration");
                Map<String, Map<String, Long>> byType = new LinkedHashMap<>();
                if (a.usage() != null) {
                    for (Map.Entry<String, ResourceMap> e : a.usage().entrySet()) {
                        byType.put(e.getKey(), resources(e.getValue(), at + ".usage." + e.getKey() + ".resources"));
                    }
                }
                aggregated.put(d, byType);
            }
        }
        Map<String, PodEntry> pods = new LinkedHashMap<>();
        List<NodeMetric.PodMetricInfo> pm = st.podsMetric() == null ? List.of() : st.podsMetric();
        for (int i = 0; i < pm.size(); i++) {
            NodeMetric.PodMetricInfo p = pm.get(i);
            String ns = p.namespace() == null || p.namespace().isEmpty() ? "default" : p.namespace();
            pods.put(ns + "/" + p.name(), new PodEntry(resources(p.podUsage(), where + "status.podsMetric[" + i + "].podUsage.resources"),
                    p.priority()));
        }
        return new NodeMetricView(updated, report, usage, aggregated, system, pods);
    }

    private static Map<String, Long> resources(ResourceMap map, String where) throws InvalidInputException {
        Map<String, Long> out = new LinkedHashMap<>();
        if (map == null || map.resources() == null) {
            return out;
        }
        for (Map.Entry<String, Quantity> e : map.resources().entrySet()) {
            String at = where + "." + e.getKey();
            if (e.getValue() == null) {
                throw new InvalidInputException(at + ": no quantity");
            }
            out.put(e.getKey(), e.getKey().equals("cpu") ? Quantities.milliValue(e.getValue().toString(), at)
                    : Quantities.value(e.getValue().toString(), at));
        }
        return out;
    }

    /** Expired: no update time, or at least {@code seconds} old at {@code now}. */
    boolean expired(Instant now, long seconds) {
        return updateTime == null || !now.isBefore(updateTime.plusSeconds(seconds));
    }

    /**
     * The aggregated usage of a type for a duration; duration zero means the longest one present (none: the plain
     * node usage). Null when the set duration or the type is absent.
     */
    Map<String, Long> aggregatedUsage(Duration duration, String type) {
        if (duration.isZero()) {
            Duration longest = aggregated.entrySet().stream().filter(e -> !e.getValue().isEmpty()).map(Map.Entry::getKey)
                    .max(Duration::compareTo).orElse(null);
            if (longest == null) {
                return nodeUsage;
            }
            return aggregated.get(longest).get(type);
        }
        Map<String, Map<String, Long>> byType = aggregated.get(duration);
        return byType == null ? null : byType.get(type);
    }
}
