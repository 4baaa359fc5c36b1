package io.colocation.simulator.model.trace;

/**
 * What each simulated node's online pods demand through the run: from one cluster curve spread over the nodes
 * ({@link NodeLoadCurves}) or from a per-node trace of the user's own hosts ({@link PerNodeTrace}).
 */
public interface OnlineLoad {
    /** The trace's name as the user gave it ({@code alibaba2018}, a file). */
    String traceName();

    /** The column (or columns) read. */
    String traceColumn();

    /** The node's online CPU demand in cores, {@code seconds} into the run, on a node of {@code capacityCores}. */
    double onlineCores(int node, double seconds, double capacityCores);

    /** The node's mean online demand over the run, in cores: what its online pods' requests are sized from. */
    double meanOnlineCores(int node, double capacityCores);

    /** The node's online memory in use {@code seconds} into the run, as a multiple of its mean over the run. */
    double memoryFactor(int node, double seconds);

    /** The node's mean online memory use over the run, a fraction of its memory; NaN when the load does not say. */
    double meanMemoryShare(int node);
}
