package io.colocation.koordlet.kube;

import io.colocation.kube.client.DecodingInformer;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the agent reads of the API server about its own node: its pods, its Node, its NodeMetric (the broker writes the
 * spec) and its NodeSLO. On a host, {@link NodeWatches} watches them for this node alone; a simulator hosting many
 * agents serves every agent's view from watches it shares.
 */
public interface NodeView extends AutoCloseable {
    /** Starts watching and waits until everything was listed once. */
    void start(Duration timeout) throws NodeWatches.StartupException;

    List<Pod> pods();

    Optional<Node> node();

    /** This node's NodeMetric as last seen, readable or not; empty when there is none. */
    Optional<DecodingInformer.Decoded<NodeMetric>> nodeMetricEntry();

    /** This node's NodeMetric; empty when there is none or it cannot be read ({@link #unreadable()} says why). */
    default Optional<NodeMetric> nodeMetric() {
        return nodeMetricEntry().map(DecodingInformer.Decoded::value);
    }

    Optional<NodeSLO> nodeSlo();

    /** The NodeMetric and NodeSLO of this node that exist but cannot be read, and why. */
    Map<String, String> unreadable();

    /** Whether every watch is connected. */
    boolean watching();

    @Override
    void close();
}
