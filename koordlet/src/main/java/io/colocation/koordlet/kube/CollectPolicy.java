package io.colocation.koordlet.kube;

import io.colocation.api.InvalidInputException;
import io.colocation.koordlet.collect.MemoryCollectPolicy;
import io.colocation.model.GoDuration;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeMetricSpecs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The NodeMetric {@code spec.metricCollectPolicy} this agent follows. What the spec leaves out takes the value the
 * broker's NodeMetric controller writes by default ({@link NodeMetricSpecs#defaults()}); what is invalid takes it
 * too, with a problem naming the field and the value.
 */
public record CollectPolicy(Duration aggregateWindow, Duration reportInterval, List<Duration> aggregateDurations,
        MemoryCollectPolicy memoryPolicy, List<String> problems) {

    private static final NodeMetric.CollectPolicy DEFAULT_SPEC = NodeMetricSpecs.defaults();
    public static final CollectPolicy DEFAULT = read(DEFAULT_SPEC, null);

    /** Reads the spec; null or empty parts take the defaults. */
    public static CollectPolicy of(NodeMetric.Spec spec) {
        NodeMetric.CollectPolicy p = spec == null ? null : spec.metricCollectPolicy();
        return p == null ? DEFAULT : read(p, DEFAULT);
    }

    /** @param fallback null only while reading the defaults themselves, which set every field */
    private static CollectPolicy read(NodeMetric.CollectPolicy p, CollectPolicy fallback) {
        List<String> problems = new ArrayList<>();
        Duration window = seconds(p.aggregateDurationSeconds(), "aggregateDurationSeconds",
                fallback == null ? null : fallback.aggregateWindow(), problems);
        Duration report = seconds(p.reportIntervalSeconds(), "reportIntervalSeconds", fallback == null ? null : fallback.reportInterval(),
                problems);
        List<Duration> durations = fallback == null ? List.of() : fallback.aggregateDurations();
        if (p.nodeAggregatePolicy() != null && p.nodeAggregatePolicy().durations() != null) {
            List<Duration> ok = new ArrayList<>();
            for (String d : p.nodeAggregatePolicy().durations()) {
                try {
                    Duration parsed = GoDuration.parse(d, "spec.metricCollectPolicy.nodeAggregatePolicy.durations");
                    if (parsed.isZero()) {
                        problems.add("spec.metricCollectPolicy.nodeAggregatePolicy.durations: '" + d + "' is zero; ignored");
                    } else {
                        ok.add(parsed);
                    }
                } catch (InvalidInputException e) {
                    problems.add(e.getMessage() + "; ignored");
                }
            }
            durations = List.copyOf(ok);
        }
        MemoryCollectPolicy memory = fallback == null ? null : fallback.memoryPolicy();
        if (p.nodeMemoryCollectPolicy() != null && !p.nodeMemoryCollectPolicy().isEmpty()) {
            MemoryCollectPolicy named = MemoryCollectPolicy.fromWire(p.nodeMemoryCollectPolicy());
            if (named == null) {
                problems.add("spec.metricCollectPolicy.nodeMemoryCollectPolicy: unknown policy '" + p.nodeMemoryCollectPolicy()
                        + "' (usageWithoutPageCache, usageWithHotPageCache or usageWithPageCache); using "
                        + DEFAULT_SPEC.nodeMemoryCollectPolicy());
            } else {
                memory = named;
            }
        }
        if (fallback == null && !problems.isEmpty()) {
            throw new IllegalStateException("the default collect policy is invalid: " + problems);
        }
        return new CollectPolicy(window, report, durations, memory, List.copyOf(problems));
    }

    private static Duration seconds(Long value, String field, Duration fallback, List<String> problems) {
        if (value == null) {
            return fallback;
        }
        if (value <= 0 || value > 86_400) {
            problems.add("spec.metricCollectPolicy." + field + ": " + value + " is not 1 to 86400 seconds; using "
                    + (fallback == null ? "nothing" : fallback.getSeconds()));
            return fallback;
        }
        return Duration.ofSeconds(value);
    }
}
