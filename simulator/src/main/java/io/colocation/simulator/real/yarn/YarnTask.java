package io.colocation.simulator.real.yarn;

/** One task of a YARN application: its container's size, how much of it it uses, its work, and when it last asked. */
public final class YarnTask {
    final int vcores;
    final long memoryMb;
    final double cpuUse;
    final long memoryUse;
    final double workCoreSeconds;
    long askedAtMillis;

    public YarnTask(int vcores, long memoryMb, double cpuUse, long memoryUse, double workCoreSeconds) {
        this.vcores = vcores;
        this.memoryMb = memoryMb;
        this.cpuUse = cpuUse;
        this.memoryUse = memoryUse;
        this.workCoreSeconds = workCoreSeconds;
    }
}
