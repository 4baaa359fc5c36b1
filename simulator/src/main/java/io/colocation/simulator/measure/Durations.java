package io.colocation.simulator.measure;

import java.util.Map;
import java.util.TreeMap;

/**
 * Durations in milliseconds, kept as how often each value occurred: a week of 10,000 nodes queues tens of millions of
 * tasks, whose delays, on an engine's step, take a few thousand values. Its percentiles are the nearest-rank ones of
 * the whole list, exactly. Thread-safe.
 */
public final class Durations {
    private final TreeMap<Long, long[]> counts = new TreeMap<>();
    private long size;

    public synchronized void add(long millis) {
        counts.computeIfAbsent(millis, k -> new long[1])[0]++;
        size++;
    }

    public synchronized long size() {
        return size;
    }

    /** The nearest-rank percentile ({@code p} of 100: the value at rank ⌈p/100 · n⌉); 0 when empty. */
    public synchronized long percentile(double p) {
        if (size == 0) {
            return 0;
        }
        long rank = Math.max(1, Math.min(size, (long) Math.ceil(p / 100 * size)));
        long seen = 0;
        for (Map.Entry<Long, long[]> e : counts.entrySet()) {
            seen += e.getValue()[0];
            if (seen >= rank) {
                return e.getKey();
            }
        }
        return counts.lastKey();
    }

    /** The largest; 0 when empty. */
    public synchronized long max() {
        return size == 0 ? 0 : counts.lastKey();
    }
}
