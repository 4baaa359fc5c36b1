package io.colocation.broker.calculation;

import io.colocation.model.config.ColocationStrategy;
import java.time.Duration;
import java.time.Instant;

/**
 * When a node's Batch and Mid stop being trusted, both rules in one place. A stale or absent NodeMetric
 * degrades at once (Koordinator's {@code isDegradeNeeded}); a node whose own inputs cannot be read (status,
 * annotations, pods) keeps its grants frozen for degradeTimeMinutes, then loses its Batch, so an operator's
 * typo does not take capacity away before anyone could see the Warning Event.
 */
public final class DegradeRules {
    private DegradeRules() {
    }

    /** Koordinator's {@code isDegradeNeeded}: no NodeMetric, no update time, or older than degradeTimeMinutes. */
    public static boolean isDegraded(NodeMetricState metric, ColocationStrategy strategy, Instant now) {
        if (metric == null || metric.updateTime() == null) {
            return true;
        }
        return now.isAfter(metric.updateTime().plus(degradeTime(strategy)));
    }

    /** When a node whose inputs have been unreadable since {@code since} loses its Batch (frozen until then). */
    public static Instant inputFaultRemovesBatchAt(Instant since, ColocationStrategy strategy) {
        return since.plus(degradeTime(strategy));
    }

    private static Duration degradeTime(ColocationStrategy strategy) {
        return Duration.ofMinutes(strategy.degradeTimeMinutes());
    }
}
