package io.colocation.scheduler.framework;

/**
 * A filter that can also judge a node from its chunk's {@link NodeOrder.ResourceColumns}, without reading the node: a
 * search of a full cluster visits every node and the filter rejects most, so it then walks dense arrays. The search
 * uses the screen only when this filter is the profile's first, so a node it rejects has exactly that first rejection.
 */
public interface ColumnFilter extends FilterPlugin {
    /** The pod's screen for one search; null when this pod is to be judged from the nodes. */
    Screen screen(PodInfo pod);

    /** Judges nodes for one pod; not thread-safe (one search). */
    interface Screen {
        /** The verdict {@link FilterPlugin#filter} gives the node at {@code slot} of {@code columns}; null when it passes. */
        Status judge(NodeOrder.ResourceColumns columns, int slot);
    }
}
