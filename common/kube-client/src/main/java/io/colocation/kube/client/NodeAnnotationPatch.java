package io.colocation.kube.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.api.model.NodeBuilder;

/** Sets or removes one annotation of a Node by a JSON merge patch, leaving other writers' annotations alone. */
public final class NodeAnnotationPatch {
    private static final ObjectMapper JSON = new ObjectMapper();

    private NodeAnnotationPatch() {
    }

    /**
     * @param value the annotation's value; null removes it
     * @throws KubernetesClientException when the API server refuses (404: no such Node; 403: RBAC)
     */
    public static void set(KubernetesClient client, String node, String key, String value) {
        ObjectNode patch = JSON.createObjectNode();
        patch.putObject("metadata").putObject("annotations").put(key, value);
        Patches.merge(client, new NodeBuilder().withNewMetadata().withName(node).endMetadata().build(), patch.toString());
    }
}
