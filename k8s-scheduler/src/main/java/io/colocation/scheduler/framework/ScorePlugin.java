package io.colocation.scheduler.framework;

import java.util.Map;

/** The score extension point: how good is this node, 0..100, before normalization and weight. */
public interface ScorePlugin extends Plugin {
    long MAX_NODE_SCORE = 100;

    long score(CycleState state, PodInfo pod, NodeInfo node);

    /** Normalizes the scores of all feasible nodes in place; the default keeps them (no NormalizeScore). */
    default void normalize(CycleState state, PodInfo pod, Map<String, Long> scores) {
    }

    /**
     * Whether this plugin has a NormalizeScore: the running scheduler builds the map {@link #normalize} takes only
     * then, since it scores hundreds of nodes a pod. A plugin that overrides {@code normalize} returns true.
     */
    default boolean normalizes() {
        return false;
    }
}
