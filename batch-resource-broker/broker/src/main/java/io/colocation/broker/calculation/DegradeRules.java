package io.colocation.broker.calculation;

import io.colocation.model.config.ColocationStrategy;
import java.time.Duration;
import java.time.Instant;

/** Koordinator's {@code isDegradeNeeded}: no NodeMetric, no update time, or older than degradeTimeMinutes. */
public final class MetricFreshness {
    private MetricFreshness() {
    }

    public static boolean isDegraded(NodeMetricState metric, ColocationStrategy strategy, Instant now) {
        if (metric == null || metric.updateTime() == null) {
            return true;
        }
        return now.isAfter(metric.updateTime().plus(Duration.ofMinutes(strategy.degradeTimeMinutes())));
    }
}
