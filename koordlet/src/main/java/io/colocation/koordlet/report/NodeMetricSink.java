package io.colocation.koordlet.report;

import io.colocation.model.slo.NodeMetric;
import java.util.Map;
import java.util.Optional;

/**
 * Where the agent's NodeMetric status goes: the API server ({@link NodeMetricReporter}) on a host; the fast simulator's
 * in-memory cluster, which runs thousands of agents without a client.
 */
public interface NodeMetricSink {
    /** @param resourceVersion the NodeMetric's as last watched; empty when there is none */
    NodeMetricReporter.Outcome report(Optional<String> resourceVersion, NodeMetric.Status status);

    /** What cannot be written now, and why. */
    Map<String, String> problems();
}
