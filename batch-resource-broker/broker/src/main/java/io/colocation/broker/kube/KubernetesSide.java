package io.colocation.broker.kube;

import io.fabric8.kubernetes.api.model.Node;
import java.io.IOException;

/**
 * The Kubernetes side of the ledger as the pass sees it: the one writer of a node's Batch and Mid, and of
 * the Events that tell an operator about a node. The counterpart of {@link io.colocation.broker.yarn.YarnSide}.
 */
public interface KubernetesSide {

    /** Writes the node's Batch, Mid and Koordinator annotations, starting from {@code cached}; returns the written node. */
    Node publish(String nodeName, Node cached, BatchPublication publication) throws IOException;

    /**
     * Records a Warning Event on the node ({@code reason} in CamelCase, as Kubernetes reasons are). Best effort:
     * an Event that cannot be written is logged, never thrown.
     */
    void warn(String nodeName, String reason, String message);
}
