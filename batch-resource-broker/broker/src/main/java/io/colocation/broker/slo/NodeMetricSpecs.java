package io.colocation.broker.slo;

import io.colocation.model.config.ColocationStrategy;
import io.colocation.model.slo.NodeMetric;
import java.time.Duration;
import java.util.List;

/**
 * The {@code spec.metricCollectPolicy} Koordinator's nodemetric controller writes (KOORDINATOR-COMPAT.md
 * §11.1): the node's merged colocation strategy when colocation is enabled, else the defaults.
 */
public final class NodeMetricSpecs {
    private NodeMetricSpecs() {
    }

    public static NodeMetric.Spec forStrategy(ColocationStrategy merged) {
        ColocationStrategy s = merged.isEnabled() ? ColocationStrategy.defaults().overlay(merged) : ColocationStrategy.defaults();
        return new NodeMetric.Spec(new NodeMetric.CollectPolicy(s.metricAggregateDurationSeconds(), s.metricReportIntervalSeconds(),
                new NodeMetric.AggregatePolicy(s.metricAggregateDurations().stream().map(NodeMetricSpecs::goDuration).toList()),
                s.metricMemoryCollectPolicy()));
    }

    /** {@code 5m} → {@code 5m0s}, {@code 1h} → {@code 1h0m0s}, as Go's {@code time.Duration} prints. */
    static String goDuration(String text) {
        Duration d = parse(text);
        if (d == null) {
            return text;
        }
        long seconds = d.getSeconds();
        if (seconds == 0) {
            return "0s";
        }
        long h = seconds / 3600;
        long m = seconds % 3600 / 60;
        long s = seconds % 60;
        return h > 0 ? h + "h" + m + "m" + s + "s" : m > 0 ? m + "m" + s + "s" : s + "s";
    }

    private static Duration parse(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?").matcher(text);
        if (text.isEmpty() || !m.matches()) {
            return null;
        }
        long seconds = 0;
        List<Long> unit = List.of(3600L, 60L, 1L);
        for (int g = 1; g <= 3; g++) {
            if (m.group(g) != null) {
                seconds += Long.parseLong(m.group(g)) * unit.get(g - 1);
            }
        }
        return Duration.ofSeconds(seconds);
    }
}
