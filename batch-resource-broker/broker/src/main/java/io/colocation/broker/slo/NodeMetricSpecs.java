package io.colocation.broker.slo;

import io.colocation.api.InvalidInputException;
import io.colocation.model.GoDuration;
import io.colocation.model.config.ColocationStrategy;
import io.colocation.model.slo.NodeMetric;

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

    /** {@code 5m} → {@code 5m0s}, {@code 1h} → {@code 1h0m0s}, as Go's {@code time.Duration} prints; unparsable text is kept. */
    static String goDuration(String text) {
        try {
            return GoDuration.format(GoDuration.parse(text, "metricAggregatePolicy.durations"));
        } catch (InvalidInputException e) {
            return text;
        }
    }
}
