package io.colocation.koordlet.report;

import io.colocation.api.PriorityClass;
import io.colocation.api.QoSClass;
import io.colocation.koordlet.cache.MetricCache;
import io.colocation.koordlet.cache.Points;
import io.colocation.model.GoDuration;
import io.colocation.model.Resources;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.ResourceMap;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a NodeMetric status from the metric cache as Koordinator's koordlet does (docs/koordinator-compatibility.md §2.11):
 * averages over the aggregate window; p50/p90/p95/p99 per configured duration only when the samples span at least
 * half of it; pods and host applications with their priority and QoS; all YARN containers as one host
 * application; the prod prediction. Something not measured is left out, never reported as 0.
 */
public final class NodeMetricStatusBuilder {
    /** Koordinator's {@code validateTimeRangeRatio}. */
    public static final double COVERAGE_RATIO = 0.5;
    private static final Map<String, Double> PERCENTILES = percentiles();

    private NodeMetricStatusBuilder() {
    }

    private static Map<String, Double> percentiles() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("p50", 0.5);
        m.put("p90", 0.9);
        m.put("p95", 0.95);
        m.put("p99", 0.99);
        return m;
    }

    public static NodeMetric.Status build(MetricCache cache, ReportInputs in) {
        long to = in.now().toEpochMilli();
        long from = to - in.aggregateWindow().toMillis();

        ResourceMap nodeUsage = average(cache, MetricCache.Kind.NODE, MetricCache.NODE_ID, from, to);
        ResourceMap systemUsage = average(cache, MetricCache.Kind.SYSTEM, MetricCache.NODE_ID, from, to);
        List<NodeMetric.AggregatedUsage> nodeAggregated = new ArrayList<>();
        List<NodeMetric.AggregatedUsage> systemAggregated = new ArrayList<>();
        for (Duration d : in.aggregateDurations()) {
            aggregated(cache, MetricCache.Kind.NODE, to, d).ifPresent(nodeAggregated::add);
            aggregated(cache, MetricCache.Kind.SYSTEM, to, d).ifPresent(systemAggregated::add);
        }
        NodeMetric.NodeMetricInfo node = new NodeMetric.NodeMetricInfo(nodeUsage, nodeAggregated.isEmpty() ? null : nodeAggregated,
                systemUsage, systemAggregated.isEmpty() ? null : systemAggregated, null);

        List<NodeMetric.PodMetricInfo> pods = new ArrayList<>();
        for (ReportInputs.Pod p : in.pods()) {
            ResourceMap usage = average(cache, MetricCache.Kind.POD, p.uid(), from, to);
            if (usage != null) {
                pods.add(new NodeMetric.PodMetricInfo(p.name(), p.namespace(), usage, p.priority(), p.qos(), null));
            }
        }
        pods.sort(Comparator.comparing(NodeMetric.PodMetricInfo::namespace).thenComparing(NodeMetric.PodMetricInfo::name));

        List<NodeMetric.HostApplicationMetricInfo> apps = new ArrayList<>();
        for (ReportInputs.HostApp a : in.hostApps()) {
            ResourceMap usage = average(cache, MetricCache.Kind.HOST_APP, a.name(), from, to);
            if (usage != null) {
                apps.add(new NodeMetric.HostApplicationMetricInfo(a.name(), usage, a.priority(), a.qos()));
            }
        }
        ResourceMap yarn = average(cache, MetricCache.Kind.YARN, MetricCache.NODE_ID, from, to);
        if (yarn != null) {
            apps.add(new NodeMetric.HostApplicationMetricInfo(in.yarnAppName(), yarn, PriorityClass.BATCH.koordName(), QoSClass.BE.name()));
        }
        apps.sort(Comparator.comparing(NodeMetric.HostApplicationMetricInfo::name));

        NodeMetric.ReclaimableMetric reclaimable = in.prediction().map(r -> new NodeMetric.ReclaimableMetric(map(r.reclaimable()))).orElse(null);
        NodeMetric.ReclaimableMetric peak = in.prediction().map(r -> new NodeMetric.ReclaimableMetric(map(r.peak()))).orElse(null);
        return new NodeMetric.Status(in.now().truncatedTo(ChronoUnit.SECONDS).toString(), node, pods, apps, reclaimable, peak);
    }

    private static ResourceMap average(MetricCache cache, MetricCache.Kind kind, String id, long from, long to) {
        Points cpu = cache.points(kind, id, true, from, to);
        Points mem = cache.points(kind, id, false, from, to);
        return usage(cpu.average(), mem.average());
    }

    private static java.util.Optional<NodeMetric.AggregatedUsage> aggregated(MetricCache cache, MetricCache.Kind kind, long to, Duration d) {
        long from = to - d.toMillis();
        Points cpu = cache.points(kind, MetricCache.NODE_ID, true, from, to);
        Points mem = cache.points(kind, MetricCache.NODE_ID, false, from, to);
        if (!cpu.covers(d.toMillis(), COVERAGE_RATIO) || !mem.covers(d.toMillis(), COVERAGE_RATIO)) {
            return java.util.Optional.empty();
        }
        Map<String, ResourceMap> usage = new LinkedHashMap<>();
        Points.Sorted cpuSorted = cpu.sorted();
        Points.Sorted memSorted = mem.sorted();
        PERCENTILES.forEach((name, p) -> usage.put(name, usage(cpuSorted.percentile(p), memSorted.percentile(p))));
        return java.util.Optional.of(new NodeMetric.AggregatedUsage(usage, GoDuration.format(d)));
    }

    /** CPU as milli-cores ({@code int64(cores × 1000)}), memory in bytes; null when both are unknown. */
    private static ResourceMap usage(double cpuCores, double memoryBytes) {
        Map<String, Quantity> r = new LinkedHashMap<>();
        if (!Double.isNaN(cpuCores)) {
            r.put("cpu", cpu((long) (cpuCores * 1000)));
        }
        if (!Double.isNaN(memoryBytes)) {
            r.put("memory", new Quantity(Long.toString((long) memoryBytes)));
        }
        return r.isEmpty() ? null : new ResourceMap(r);
    }

    private static ResourceMap map(Resources r) {
        Map<String, Quantity> m = new LinkedHashMap<>();
        m.put("cpu", cpu(r.cpuMilli()));
        m.put("memory", new Quantity(Long.toString(r.memoryBytes())));
        return new ResourceMap(m);
    }

    private static Quantity cpu(long milli) {
        return new Quantity(milli % 1000 == 0 ? Long.toString(milli / 1000) : milli + "m");
    }
}
