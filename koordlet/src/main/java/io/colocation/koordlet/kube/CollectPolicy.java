package io.colocation.koordlet.kube;

import io.colocation.api.InvalidInputException;
import io.colocation.koordlet.collect.MemoryCollectPolicy;
import io.colocation.model.GoDuration;
import io.colocation.model.slo.NodeMetric;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The NodeMetric {@code spec.metricCollectPolicy} this agent follows, with Koordinator's defaults for what is
 * absent and, for what is invalid, the default plus a problem naming the field and the value.
 */
public record CollectPolicy(Duration aggregateWindow, Duration reportInterval, List<String> aggregateDurations,
        MemoryCollectPolicy memoryPolicy, List<String> problems) {

    public static final CollectPolicy DEFAULT = new CollectPolicy(Duration.ofSeconds(300), Duration.ofSeconds(60),
            List.of("5m0s", "10m0s", "30m0s"), MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE, List.of());

    /** Reads the spec; null or empty parts take the defaults. */
    public static CollectPolicy of(NodeMetric.Spec spec) {
        NodeMetric.CollectPolicy p = spec == null ? null : spec.metricCollectPolicy();
        if (p == null) {
            return DEFAULT;
        }
        List<String> problems = new ArrayList<>();
        Duration window = seconds(p.aggregateDurationSeconds(), "aggregateDurationSeconds", DEFAULT.aggregateWindow(), problems);
        Duration report = seconds(p.reportIntervalSeconds(), "reportIntervalSeconds", DEFAULT.reportInterval(), problems);
        List<String> durations = DEFAULT.aggregateDurations();
        if (p.nodeAggregatePolicy() != null && p.nodeAggregatePolicy().durations() != null) {
            List<String> ok = new ArrayList<>();
            for (String d : p.nodeAggregatePolicy().durations()) {
                try {
                    Duration parsed = GoDuration.parse(d, "spec.metricCollectPolicy.nodeAggregatePolicy.durations");
                    if (parsed.isZero()) {
                        problems.add("spec.metricCollectPolicy.nodeAggregatePolicy.durations: '" + d + "' is zero; ignored");
                    } else {
                        ok.add(GoDuration.format(parsed));
                    }
                } catch (InvalidInputException e) {
                    problems.add(e.getMessage() + "; ignored");
                }
            }
            durations = List.copyOf(ok);
        }
        MemoryCollectPolicy memory = DEFAULT.memoryPolicy();
        if (p.nodeMemoryCollectPolicy() != null && !p.nodeMemoryCollectPolicy().isEmpty()) {
            memory = MemoryCollectPolicy.fromWire(p.nodeMemoryCollectPolicy());
            if (memory == null) {
                problems.add("spec.metricCollectPolicy.nodeMemoryCollectPolicy: unknown policy '" + p.nodeMemoryCollectPolicy()
                        + "' (usageWithoutPageCache, usageWithHotPageCache or usageWithPageCache); using usageWithoutPageCache");
                memory = DEFAULT.memoryPolicy();
            }
        }
        return new CollectPolicy(window, report, durations, memory, List.copyOf(problems));
    }

    private static Duration seconds(Long value, String field, Duration fallback, List<String> problems) {
        if (value == null) {
            return fallback;
        }
        if (value <= 0 || value > 86_400) {
            problems.add("spec.metricCollectPolicy." + field + ": " + value + " is not 1 to 86400 seconds; using " + fallback.getSeconds());
            return fallback;
        }
        return Duration.ofSeconds(value);
    }
}
