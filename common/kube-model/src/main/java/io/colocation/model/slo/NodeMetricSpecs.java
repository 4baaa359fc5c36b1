package io.colocation.model.slo;

import io.colocation.api.InvalidInputException;
import io.colocation.model.GoDuration;
import io.colocation.model.config.ColocationStrategy;

/**
 * The {@code spec.metricCollectPolicy} Koordinator's nodemetric controller writes (docs/koordinator-compatibility.md
 * §11.1): the node's merged colocation strategy when colocation is enabled, else the defaults. The broker's
 * NodeMetric controller writes it; the koordlet falls back to its defaults for what a spec leaves out.
 */
public final class NodeMetricSpecs {
    private NodeMetricSpecs() {
    }

    /** The collect policy of a node without colocation: Koordinator's defaults. */
    public static NodeMetric.CollectPolicy defaults() {
        return forStrategy(ColocationStrategy.defaults()).metricCollectPolicy();
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
