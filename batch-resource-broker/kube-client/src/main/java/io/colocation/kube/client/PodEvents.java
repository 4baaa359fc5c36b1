package io.colocation.kube.client;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.UUID;

/** Writes a core/v1 Event on a pod, as {@code kubectl describe pod} shows it; the one way our parts record one. */
public final class PodEvents {
    private PodEvents() {
    }

    /**
     * @param type      {@code Normal} or {@code Warning}
     * @param component who writes it (the Event's source)
     * @param host      the node it is about, or null
     * @throws KubernetesClientException when the API server refuses
     */
    public static void record(KubernetesClient client, Pod pod, String type, String reason, String message, String component,
            String host, Instant now) {
        String time = now.toString();
        client.v1().events().inNamespace(pod.getMetadata().getNamespace()).resource(new EventBuilder().withNewMetadata()
                .withName(pod.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 8))
                .withNamespace(pod.getMetadata().getNamespace()).endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder().withKind("Pod").withApiVersion("v1")
                        .withNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                        .withUid(pod.getMetadata().getUid()).build())
                .withType(type).withReason(reason).withMessage(message)
                .withNewSource().withComponent(component).withHost(host).endSource()
                .withFirstTimestamp(time).withLastTimestamp(time).withCount(1).build()).create();
    }
}
