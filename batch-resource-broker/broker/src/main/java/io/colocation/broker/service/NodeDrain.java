package io.colocation.broker.service;

import io.colocation.broker.reconcile.BrokerReconciler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.NoSuchElementException;

/**
 * Drains a node's Batch by annotating the Node ({@code colocation.io/drain-batch: "true"}), so the drain
 * survives a broker failover and shows in {@code kubectl}; undoing removes the annotation. While drained,
 * origin counts as 0: no side gets new room, running work is not killed by the broker.
 */
final class NodeDrain {
    private NodeDrain() {
    }

    static void set(KubernetesClient client, String node, boolean drained) {
        String value = drained ? "\"true\"" : "null";
        String patch = "{\"metadata\":{\"annotations\":{\"" + BrokerReconciler.ANNOTATION_DRAIN_BATCH + "\":" + value + "}}}";
        try {
            client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                throw new NoSuchElementException("no Node " + node);
            }
            throw e;
        }
    }
}
