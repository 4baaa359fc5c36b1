package io.colocation.koordlet.cache;

import java.util.Arrays;

/**
 * Known values of one resource of one thing in a time window, with the times of the first and last of them.
 * Aggregations are Koordinator's (metriccache {@code aggregateResult}): the average, and the percentile
 * {@code sorted[max(int(n × p) − 1, 0)]}.
 */
public record Points(double[] values, long firstMillis, long lastMillis) {
    public static final Points NONE = new Points(new double[0], Long.MAX_VALUE, Long.MIN_VALUE);

    public boolean isEmpty() {
        return values.length == 0;
    }

    /** Time between the first and last value; Koordinator's {@code TimeRangeDuration}. */
    public long spanMillis() {
        return isEmpty() ? 0 : lastMillis - firstMillis;
    }

    /** Whether the values span at least {@code ratio} of {@code durationMillis} (Koordinator's 0.5 rule). */
    public boolean covers(long durationMillis, double ratio) {
        return !isEmpty() && spanMillis() >= durationMillis * ratio;
    }

    public double average() {
        if (isEmpty()) {
            return Double.NaN;
        }
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    /** {@code p} in (0, 1]; NaN when empty. */
    public double percentile(double p) {
        return sorted().percentile(p);
    }

    /** The values in ascending order, to read several percentiles of one sort. */
    public Sorted sorted() {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return new Sorted(sorted);
    }

    /** Values in ascending order. */
    public record Sorted(double[] values) {
        /** {@code p} in (0, 1]; NaN when empty. */
        public double percentile(double p) {
            if (values.length == 0) {
                return Double.NaN;
            }
            // Go: int(float32(n) * percentile) - 1, at least 0
            int idx = (int) ((float) values.length * (float) p) - 1;
            return values[Math.max(Math.min(idx, values.length - 1), 0)];
        }
    }
}
