package io.colocation.simulator.model.trace;

import io.colocation.api.InvalidInputException;
import java.io.IOException;
import java.nio.file.Path;

/** The online load {@code --trace} names: a per-node CSV as measured ({@link PerNodeTrace}), else a curve spread over the nodes. */
public final class OnlineLoads {
    private OnlineLoads() {
    }

    /**
     * @param column       the cluster curve's column (null: its default); a per-node trace names its own columns
     * @param seconds      how long the run lasts (simulated seconds)
     * @param meanFraction the cluster's online mean for a cluster curve (a per-node trace is used as measured)
     */
    public static OnlineLoad load(String trace, String column, double stepSeconds, int nodes, double seconds, double meanFraction, long seed)
            throws InvalidInputException {
        Path perNode = perNodeFile(trace, column);
        if (perNode != null) {
            return PerNodeTrace.load(perNode, nodes, seconds);
        }
        return new NodeLoadCurves(LoadTrace.load(trace, column, stepSeconds), nodes, seconds, meanFraction, seed);
    }

    /** The file when {@code trace} is a per-node CSV, else null. */
    private static Path perNodeFile(String trace, String column) throws InvalidInputException {
        if (LoadTrace.isNamed(trace)) {
            return null;
        }
        Path file = LoadTrace.csvFile(trace, PerNodeTrace.MAX_BYTES);
        try {
            if (!PerNodeTrace.isPerNode(file)) {
                return null;
            }
        } catch (IOException e) {
            throw new InvalidInputException(trace + ": cannot be read: " + e.getMessage());
        }
        if (column != null) {
            throw new InvalidInputException("--trace-column: " + trace + " is a per-node trace, read by its columns node, timestamp, cpu"
                    + " and memory; --trace-column names the column of a cluster curve");
        }
        return file;
    }
}
