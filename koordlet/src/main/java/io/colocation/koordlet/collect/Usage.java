package io.colocation.koordlet.collect;

/**
 * CPU (cores) and memory (bytes) of one thing at one instant. A part that could not be measured is missing
 * ({@code NaN} CPU, negative memory), never 0: a reader that cannot tell "idle" from "unknown" would report
 * a host as idle exactly when its agent is blind.
 */
public record Usage(double cpuCores, long memoryBytes) {
    public static final Usage MISSING = new Usage(Double.NaN, -1);

    public boolean hasCpu() {
        return !Double.isNaN(cpuCores);
    }

    public boolean hasMemory() {
        return memoryBytes >= 0;
    }

    public boolean isMissing() {
        return !hasCpu() && !hasMemory();
    }

    /** Sum where both parts are known; a missing part stays missing only if both are. */
    public Usage plus(Usage o) {
        double cpu = hasCpu() ? (o.hasCpu() ? cpuCores + o.cpuCores : cpuCores) : o.cpuCores;
        long mem = hasMemory() ? (o.hasMemory() ? memoryBytes + o.memoryBytes : memoryBytes) : o.memoryBytes;
        return new Usage(cpu, mem);
    }
}
