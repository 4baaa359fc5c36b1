package io.colocation.kube.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/**
 * The one way every part sends a patch: one request. fabric8's {@code withName(n).patch(context, String)} first reads
 * the whole object from the API server to learn what it patches (a GET before each PATCH); given the object's identity
 * (a stub with its apiVersion, kind, namespace and name) it sends the patch alone. At a thousand nodes that halves the
 * requests of every status and annotation write.
 */
public final class Patches {
    private Patches() {
    }

    /**
     * A JSON merge patch ({@code application/merge-patch+json}) of the object {@code stub} names.
     *
     * @throws KubernetesClientException when the API server refuses (404: no such object; 403: RBAC)
     */
    public static <T extends HasMetadata> T merge(KubernetesClient client, T stub, String patch) {
        return of(client, stub).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    /** A JSON merge patch of the status subresource of the object {@code stub} names. */
    public static <T extends HasMetadata> T mergeStatus(KubernetesClient client, T stub, String patch) {
        return of(client, stub).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    /** A JSON patch ({@code application/json-patch+json}, RFC 6902) of the object {@code stub} names. */
    public static <T extends HasMetadata> T json(KubernetesClient client, T stub, String patch) {
        return of(client, stub).patch(PatchContext.of(PatchType.JSON), patch);
    }

    private static <T extends HasMetadata> Resource<T> of(KubernetesClient client, T stub) {
        return client.resource(stub);
    }
}
