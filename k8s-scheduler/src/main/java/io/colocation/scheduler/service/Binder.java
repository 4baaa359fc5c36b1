package io.colocation.scheduler.service;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;

/** Writes a decision through the {@code pods/binding} subresource, at the scheduler's client write rate. */
final class Binder {
    private final KubernetesClient client;
    private final WriteRate rate;

    Binder(KubernetesClient client, WriteRate rate) {
        this.client = client;
        this.rate = rate;
    }

    /** Binds the pod; returns why not, empty when bound. */
    Optional<String> bind(Pod pod, String node) {
        if (!rate.acquire()) {
            return Optional.of("interrupted before binding");
        }
        try {
            client.bindings().inNamespace(pod.getMetadata().getNamespace()).resource(new BindingBuilder().withNewMetadata()
                    .withName(pod.getMetadata().getName()).withNamespace(pod.getMetadata().getNamespace())
                    .withUid(pod.getMetadata().getUid()).endMetadata()
                    .withTarget(new ObjectReferenceBuilder().withKind("Node").withApiVersion("v1").withName(node).build()).build())
                    .create();
            return Optional.empty();
        } catch (KubernetesClientException e) {
            return Optional.of(e.getCode() + " " + e.getMessage());
        }
    }
}
