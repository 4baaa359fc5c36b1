package io.colocation.scheduler.framework;

/**
 * How much of a large cluster a running scheduler searches, as kube-scheduler does: filtering stops once enough
 * feasible nodes are found ({@code percentageOfNodesToScore} of the nodes, adaptive when 0: 50 % less 1 % per 125
 * nodes, at least 5 %, never fewer than 100 nodes) and only those are scored; the next search starts where this one
 * stopped, so every node gets its turn. Clusters under 100 nodes are searched whole, from the first node, which is
 * what {@code explain} shows. Not thread-safe: one per scheduling loop.
 */
public final class NodeSearch {
    static final int MIN_FEASIBLE_NODES_TO_FIND = 100;
    static final int MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

    private int nextStart;

    /** kube-scheduler's numFeasibleNodesToFind. */
    public static int feasibleNodesToFind(int allNodes, int percentageOfNodesToScore) {
        if (allNodes < MIN_FEASIBLE_NODES_TO_FIND || percentageOfNodesToScore >= 100) {
            return allNodes;
        }
        int percentage = percentageOfNodesToScore;
        if (percentage <= 0) {
            percentage = Math.max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND, 50 - allNodes / 125);
        }
        return Math.max(MIN_FEASIBLE_NODES_TO_FIND, allNodes * percentage / 100);
    }

    int start(int allNodes) {
        return allNodes == 0 ? 0 : nextStart % allNodes;
    }

    void stoppedAfter(int start, int processed, int allNodes) {
        nextStart = allNodes == 0 ? 0 : (start + processed) % allNodes;
    }
}
