package io.colocation.broker.kube;

import io.colocation.model.config.ColocationConfig;
import io.colocation.model.node.YarnReleaseResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;

/**
 * What a broker pass reads of Kubernetes, as the informers hold it now ({@link ClusterView}); tests give a
 * pass an in-memory one.
 */
public interface ClusterInputs {

    List<Node> nodes();

    List<Pod> podsOn(String nodeName);

    /** Pods not bound to any node yet (the scheduler's queue). */
    List<Pod> unboundPods();

    /** The node's NodeMetric, parsed, or empty when there is none. */
    Optional<ClusterView.ParsedMetric> nodeMetric(String nodeName);

    /** The node agent's YarnRelease of the node, or empty when there is none (or YarnRelease is not served). */
    Optional<YarnReleaseResource> yarnRelease(String nodeName);

    /** The colocation config in force (see {@link ClusterView#colocationConfig()}). */
    ColocationConfig colocationConfig();

    /** Why the latest ConfigMap was refused, null when it was not. */
    String configError();

    /** False when the ConfigMap is malformed and no good configuration is known: nodes must be frozen. */
    boolean configUsable();

    /** Whether every informer is watching (the API server answers). */
    boolean watching();

    /** What changed since the last call: the nodes whose Node, pods or NodeMetric changed, or everything. */
    Changes takeChanges();

    /** @param everything the config or Kubernetes' pending demand changed: every node must be decided again */
    record Changes(java.util.Set<String> nodes, boolean everything) {
    }
}
