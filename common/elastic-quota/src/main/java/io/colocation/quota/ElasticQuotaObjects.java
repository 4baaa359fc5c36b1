package io.colocation.quota;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/** ElasticQuota objects as the writers of their annotations and status name them. */
public final class ElasticQuotaObjects {
    private ElasticQuotaObjects() {
    }

    /** The identity of an ElasticQuota object, enough to patch it in one request ({@code Patches}). */
    public static GenericKubernetesResource stub(String namespace, String name) {
        GenericKubernetesResource stub = new GenericKubernetesResource();
        stub.setApiVersion(ElasticQuotaSpec.API_VERSION);
        stub.setKind(ElasticQuotaSpec.KIND);
        stub.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        return stub;
    }
}
