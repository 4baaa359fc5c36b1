package io.colocation.koordlet.cache;

/** A bounded ring of samples of one thing: time, CPU cores, memory bytes (NaN where missing). */
final class Series {
    private final long[] times;
    private final double[] cpu;
    private final double[] memory;
    private int next;
    private int size;

    Series(int capacity) {
        times = new long[capacity];
        cpu = new double[capacity];
        memory = new double[capacity];
    }

    void add(long timeMillis, double cpuCores, double memoryBytes) {
        times[next] = timeMillis;
        cpu[next] = cpuCores;
        memory[next] = memoryBytes;
        next = (next + 1) % times.length;
        size = Math.min(size + 1, times.length);
    }

    long lastTime() {
        return size == 0 ? Long.MIN_VALUE : times[(next - 1 + times.length) % times.length];
    }

    /** The known values of one resource with {@code from <= time <= to}, oldest first. */
    Points points(boolean ofCpu, long from, long to) {
        double[] source = ofCpu ? cpu : memory;
        double[] values = new double[size];
        int n = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < size; i++) {
            int at = (next - size + i + times.length) % times.length;
            long t = times[at];
            double v = source[at];
            if (t >= from && t <= to && !Double.isNaN(v)) {
                values[n++] = v;
                first = Math.min(first, t);
                last = Math.max(last, t);
            }
        }
        return new Points(n == values.length ? values : java.util.Arrays.copyOf(values, n), first, last);
    }
}
