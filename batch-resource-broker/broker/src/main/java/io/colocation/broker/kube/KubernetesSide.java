package io.colocation.broker.kube;

import io.fabric8.kubernetes.api.model.Node;
import java.io.IOException;

/**
 * The Kubernetes side of the ledger as the pass sees it: the one writer of a node's Batch and Mid, and of
 * the Events that tell an operator about a node. The counterpart of {@link io.colocation.broker.yarn.YarnSide}.
 */
public interface KubernetesSide {

    /**
     * Writes the node's Batch, Mid and Koordinator annotations, starting from {@code cached}; returns the written node. The
     * origin annotation never falls below the Batch in the status for a reader: written before the status when it grows,
     * after it when it shrinks.
     */
    Node publish(String nodeName, Node cached, BatchPublication publication) throws IOException;

    /**
     * Writes only the node's Koordinator annotations (origin, YARN's allocation): before YARN's grant grows into an origin
     * the node's annotation does not show yet, so that what the node shows always covers both sides' grants.
     */
    void publishOrigin(String nodeName, BatchPublication publication) throws IOException;

    /**
     * Records a Warning Event on the node ({@code reason} in CamelCase, as Kubernetes reasons are). Best effort:
     * an Event that cannot be written is logged, never thrown.
     */
    void warn(String nodeName, String reason, String message);
}
