package io.colocation.simulator.model.host;

/**
 * A batch task running on a simulated host: a Kubernetes batch pod or a YARN container. It has work to do
 * (core-seconds) at up to {@code demandCores} at a time: throttled, it runs longer. An ApplicationMaster has no work
 * of its own: it runs until its application ends.
 */
public final class BatchTask {
    public enum Side { KUBERNETES, YARN }

    private final String id;
    private final Side side;
    private final String name;
    private final long requestMilli;
    private final long requestMemory;
    private final double demandCores;
    private final long memoryUse;
    private final boolean applicationMaster;
    private final int priority;
    private final long startedMillis;
    private double workLeft;
    private double usedCores;

    /**
     * @param id            the pod's uid or the container's id
     * @param name          {@code namespace/name} or the container id
     * @param requestMilli  batch-cpu (milli-cores) or vcores × 1000
     * @param requestMemory bytes
     * @param workCoreSeconds what it has to do; ignored for an ApplicationMaster
     */
    public BatchTask(String id, Side side, String name, long requestMilli, long requestMemory, double demandCores, long memoryUse,
            double workCoreSeconds, boolean applicationMaster, int priority, long startedMillis) {
        this.id = id;
        this.side = side;
        this.name = name;
        this.requestMilli = requestMilli;
        this.requestMemory = requestMemory;
        this.demandCores = demandCores;
        this.memoryUse = memoryUse;
        this.workLeft = applicationMaster ? Double.POSITIVE_INFINITY : workCoreSeconds;
        this.applicationMaster = applicationMaster;
        this.priority = priority;
        this.startedMillis = startedMillis;
    }

    /** Runs {@code cores} for {@code seconds}; true when its work is done. */
    boolean run(double cores, double seconds) {
        usedCores = cores;
        workLeft -= cores * seconds;
        return workLeft <= 0;
    }

    public String id() {
        return id;
    }

    public Side side() {
        return side;
    }

    public String name() {
        return name;
    }

    public long requestMilli() {
        return requestMilli;
    }

    public long requestMemory() {
        return requestMemory;
    }

    public double demandCores() {
        return demandCores;
    }

    public long memoryUse() {
        return memoryUse;
    }

    public boolean applicationMaster() {
        return applicationMaster;
    }

    public int priority() {
        return priority;
    }

    public long startedMillis() {
        return startedMillis;
    }

    /** The cores it got in the last step. */
    public double usedCores() {
        return usedCores;
    }

    public double workLeft() {
        return workLeft;
    }
}
