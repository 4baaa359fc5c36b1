package io.colocation.simulator.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Counted durations give the percentiles of the whole sorted list, nearest rank, exactly. */
class DurationsTest {
    /** The nearest-rank percentile of the list, sorted: the value at rank ⌈p/100 · n⌉. */
    private static long sortedPercentile(List<Long> values, double p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int i = (int) Math.ceil(p / 100 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }

    @Test
    void percentilesAreThoseOfTheSortedList() {
        Random r = new Random(5);
        for (int n : new int[] {1, 2, 3, 99, 100, 101, 10_000}) {
            Durations d = new Durations();
            List<Long> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long v = r.nextBoolean() ? 1000L * r.nextInt(30) : r.nextInt(1_000_000); // steps, and values of their own
                d.add(v);
                all.add(v);
            }
            assertEquals(n, d.size());
            for (double p : new double[] {0, 1, 50, 95, 99, 99.9, 100}) {
                assertEquals(sortedPercentile(all, p), d.percentile(p), n + " values, p" + p);
            }
            assertEquals(Collections.max(all), d.max());
        }
    }

    @Test
    void nothingCountedIsZero() {
        Durations d = new Durations();
        assertEquals(0, d.percentile(50));
        assertEquals(0, d.max());
        assertEquals(0, d.size());
    }
}
