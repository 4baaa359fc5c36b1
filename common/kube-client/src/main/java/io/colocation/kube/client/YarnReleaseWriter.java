package io.colocation.kube.client;

import io.colocation.model.node.YarnRelease;
import io.colocation.model.node.YarnReleaseResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;

/** Writes a node's {@link YarnReleaseResource}: created, or replaced whole (the koordlet is its only writer). */
public final class YarnReleaseWriter {
    private YarnReleaseWriter() {
    }

    /**
     * @throws KubernetesClientException when the API server refuses (404: the CRD is not installed; 403: RBAC or the
     *                                   node-agent webhook; 500: no broker answers the webhook, which fails closed)
     */
    public static void write(KubernetesClient client, String node, YarnRelease release) {
        client.resources(YarnReleaseResource.class).resource(YarnReleaseResource.of(node, release)).createOr(NonDeletingOperation::update);
    }
}
