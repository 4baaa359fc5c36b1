package io.colocation.api.yarn;

/**
 * YARN's units against Kubernetes' (docs/koordinator-compatibility.md §1.3): a vcore is 1000 milli-cores, a MiB
 * 1024 × 1024 bytes. Towards YARN whole vcores and MiB, rounded down and never negative, so YARN is never given more
 * than the amount it came from.
 */
public final class YarnResourceUnits {
    public static final long MIB = 1024L * 1024L;

    private YarnResourceUnits() {
    }

    public static long milliOfVcores(long vcores) {
        return vcores * 1000L;
    }

    public static long bytesOfMb(long memoryMB) {
        return memoryMB * MIB;
    }

    /** Whole vcores in {@code milli}, at most {@link Integer#MAX_VALUE}. */
    public static int vcoresOfMilli(long milli) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(milli, 0) / 1000);
    }

    /** Whole MiB in {@code bytes}. */
    public static long mbOfBytes(long bytes) {
        return Math.max(bytes, 0) / MIB;
    }

    /** CapacityScheduler's absolute resource form of a queue setting: {@code [memory=10240,vcores=12]}. */
    public static String absolute(long memoryMB, long vcores) {
        return "[memory=" + memoryMB + ",vcores=" + vcores + "]";
    }
}
