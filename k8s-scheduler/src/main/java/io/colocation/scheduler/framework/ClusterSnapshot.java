package io.colocation.scheduler.framework;

import java.time.Instant;
import java.util.List;

/** What one scheduling decision sees: the nodes in order, with their pods and metrics, and the time. */
public record ClusterSnapshot(NodeOrder order, Instant now) {
    public ClusterSnapshot(List<NodeInfo> nodes, Instant now) {
        this(NodeOrder.of(nodes), now);
    }

    public List<NodeInfo> nodes() {
        return order.asList();
    }
}
