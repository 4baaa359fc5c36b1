package io.colocation.scheduler.framework;

import java.time.Instant;
import java.util.List;

/** What one scheduling decision sees: the nodes in order, with their pods and metrics, and the time. */
public record ClusterSnapshot(List<NodeInfo> nodes, Instant now) {
}
