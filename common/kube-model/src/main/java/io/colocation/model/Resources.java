package io.colocation.model;

/** CPU in milli-cores and memory in bytes: the two resources Batch and Mid are made of. */
public record Resources(long cpuMilli, long memoryBytes) {
    public static final Resources ZERO = new Resources(0, 0);

    public Resources plus(Resources o) {
        return new Resources(cpuMilli + o.cpuMilli, memoryBytes + o.memoryBytes);
    }

    public Resources minus(Resources o) {
        return new Resources(cpuMilli - o.cpuMilli, memoryBytes - o.memoryBytes);
    }

    public Resources max(Resources o) {
        return new Resources(Math.max(cpuMilli, o.cpuMilli), Math.max(memoryBytes, o.memoryBytes));
    }

    public Resources min(Resources o) {
        return new Resources(Math.min(cpuMilli, o.cpuMilli), Math.min(memoryBytes, o.memoryBytes));
    }

    /** Whether both figures are at most {@code o}'s. */
    public boolean fitsIn(Resources o) {
        return cpuMilli <= o.cpuMilli && memoryBytes <= o.memoryBytes;
    }

    public Resources atLeastZero() {
        return max(ZERO);
    }

    /** CPU from this, memory from {@code memorySource} (an LSE pod: CPU by request, memory by usage). */
    public Resources withMemoryOf(Resources memorySource) {
        return new Resources(cpuMilli, memorySource.memoryBytes);
    }

    /** As logs and explanations show it: {@code 1500m/2048Mi} (memory in whole MiB). */
    public String describe() {
        return cpuMilli + "m/" + memoryBytes / (1024L * 1024L) + "Mi";
    }
}
