package io.colocation.koordlet.qos.memory;

import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.QoSPod;
import io.colocation.koordlet.qos.YarnContainerState;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code memory.high} on the BE root (cgroup v2), beyond Koordinator: the BE tier is throttled (reclaim, allocation
 * stalls, never a kill) before the node reaches the memory-eviction threshold, so batch slows before anyone is evicted.
 * A pure function: high = capacity × memoryEvictThresholdPercent − what everything but BE uses (node used − BE pods'
 * and YARN containers' memory), rounded down to {@link #STEP} so small moves of usage do not rewrite the file.
 */
public final class BeMemoryHigh {
    /** The granularity of the limit: 16 MiB. */
    public static final long STEP = 16L << 20;

    /** @param highBytes the BE root's memory.high; null: no limit ("max") */
    public record Decision(boolean enabled, Long highBytes, List<String> explain) {
    }

    private BeMemoryHigh() {
    }

    public static Decision decide(NodeSnapshot s, boolean enabled) {
        List<String> explain = new ArrayList<>();
        if (!enabled) {
            explain.add("qos.beMemoryHigh is off: no memory.high on the BE tier");
            return new Decision(false, null, explain);
        }
        if (s.thresholds() == null || !s.thresholds().enable()) {
            explain.add("the NodeSLO does not enable resourceUsedThresholdWithBE: no memory.high on the BE tier");
            return new Decision(false, null, explain);
        }
        Long percent = s.thresholds().memoryEvictThresholdPercent();
        if (percent == null || percent <= 0 || s.capacityMemoryBytes() <= 0 || s.nodeMemoryUsedBytes() == null) {
            explain.add("no memoryEvictThresholdPercent, node capacity or memory sample: no memory.high on the BE tier");
            return new Decision(true, null, explain);
        }
        long be = s.beUsage(QoSPod::memoryUsedBytes, YarnContainerState::memoryUsedBytes);
        long others = Math.max(0, s.nodeMemoryUsedBytes() - be);
        long threshold = s.capacityMemoryBytes() / 100 * percent;
        long high = Math.max(0, threshold - others) / STEP * STEP;
        explain.add("memory.high of the BE tier = capacity " + s.capacityMemoryBytes() + " B × " + percent + "% − non-BE use ("
                + s.nodeMemoryUsedBytes() + " B node − " + be + " B BE = " + others + " B) = " + high + " B (in "
                + (STEP >> 20) + " MiB steps)");
        return new Decision(true, high, explain);
    }
}
