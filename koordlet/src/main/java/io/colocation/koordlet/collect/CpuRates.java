package io.colocation.koordlet.collect;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Turns cumulative CPU counters (nanoseconds) into cores: the change since the previous reading of the same
 * key over the time between them. The first reading of a key, or a counter that went backwards (a cgroup
 * re-created, a process gone from a tree), gives no rate (missing), not 0.
 */
final class CpuRates {
    private final Map<String, long[]> last = new HashMap<>();
    private long round;

    void beginRound() {
        round++;
    }

    /** Cores used since the last reading of {@code key}, or NaN. */
    double rate(String key, long counterNanos, long nowNanos) {
        long[] prev = last.get(key);
        if (prev == null) {
            last.put(key, new long[] {counterNanos, nowNanos, round});
            return Double.NaN;
        }
        long dc = counterNanos - prev[0];
        long dt = nowNanos - prev[1];
        prev[0] = counterNanos;
        prev[1] = nowNanos;
        prev[2] = round;
        if (dc < 0 || dt <= 0) {
            return Double.NaN;
        }
        return (double) dc / dt;
    }

    /** Forgets keys not read in this round (pods and containers that are gone). */
    void endRound() {
        for (Iterator<long[]> it = last.values().iterator(); it.hasNext(); ) {
            if (it.next()[2] != round) {
                it.remove();
            }
        }
    }
}
