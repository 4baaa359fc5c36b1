package io.colocation.broker.kube;

import io.colocation.model.Resources;
import java.time.Duration;
import java.time.Instant;

/**
 * When a node's status is worth writing (docs/koordinator-compatibility.md §2.8): a resource appears or disappears,
 * a value moves by more than {@code resourceDiffThreshold} of the old one, or the last successful write is
 * older than {@code updateTimeThresholdSeconds} (or unknown, as after a restart). One rule is ours: a
 * Batch grant that shrinks is written at once whatever the threshold, because the arbitration promise
 * (the other side may grow only after this side's shrink is accepted) cannot wait for churn control.
 */
public final class PublicationThreshold {
    private PublicationThreshold() {
    }

    /** Why to write now, or null to skip. {@code current} values are null when absent from the node. */
    public static String reason(Resources currentBatch, Resources desiredBatch, Resources currentMid, Resources desiredMid,
            Instant lastWrite, double diffThreshold, long updateTimeThresholdSeconds, Instant now) {
        if (lastWrite == null) {
            return "first write since this broker started leading";
        }
        if ((currentBatch == null) != (desiredBatch == null)) {
            return desiredBatch == null ? "batch resources removed" : "batch resources added";
        }
        if ((currentMid == null) != (desiredMid == null)) {
            return desiredMid == null ? "mid resources removed" : "mid resources added";
        }
        if (desiredBatch != null && (desiredBatch.cpuMilli() < currentBatch.cpuMilli()
                || desiredBatch.memoryBytes() < currentBatch.memoryBytes())) {
            return "batch grant shrinks";
        }
        if (differs(currentBatch, desiredBatch, diffThreshold)) {
            return "batch grant moved by more than resourceDiffThreshold " + diffThreshold;
        }
        if (differs(currentMid, desiredMid, diffThreshold)) {
            return "mid moved by more than resourceDiffThreshold " + diffThreshold;
        }
        if (Duration.between(lastWrite, now).getSeconds() > updateTimeThresholdSeconds) {
            return "last write older than updateTimeThresholdSeconds " + updateTimeThresholdSeconds;
        }
        return null;
    }

    private static boolean differs(Resources old, Resources now, double threshold) {
        if (old == null || now == null) {
            return false;
        }
        return moved(old.cpuMilli(), now.cpuMilli(), threshold) || moved(old.memoryBytes(), now.memoryBytes(), threshold);
    }

    /** Koordinator's {@code |new - old| > old * threshold} (strict; any change from 0 counts). */
    public static boolean moved(long old, long now, double threshold) {
        return Math.abs((double) now - old) > old * threshold;
    }
}
