package io.colocation.broker.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Records Warning Events ({@code kubectl describe} shows them) from the broker; best effort, never throws. */
public final class EventRecorder {
    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
    /** Events about cluster-scoped objects live in {@code default}, as the kubelet's and the scheduler's do. */
    private static final String CLUSTER_SCOPED_NAMESPACE = "default";
    private static final String SOURCE = "colocation-broker";

    private final KubernetesClient client;

    public EventRecorder(KubernetesClient client) {
        this.client = client;
    }

    /** A Warning on an object: {@code namespace} null for cluster-scoped kinds; {@code reason} in CamelCase. */
    public void warn(String apiVersion, String kind, String namespace, String name, String uid, String reason, String message) {
        String eventNamespace = namespace == null ? CLUSTER_SCOPED_NAMESPACE : namespace;
        Instant now = Instant.now();
        Event event = new EventBuilder()
                .withNewMetadata().withGenerateName(name + ".").withNamespace(eventNamespace).endMetadata()
                .withNewInvolvedObject().withApiVersion(apiVersion).withKind(kind).withNamespace(namespace).withName(name)
                .withUid(uid).endInvolvedObject()
                .withType("Warning").withReason(reason).withMessage(message.length() > 1024 ? message.substring(0, 1024) : message)
                .withNewSource().withComponent(SOURCE).endSource()
                .withFirstTimestamp(now.toString()).withLastTimestamp(now.toString()).withCount(1)
                .build();
        try {
            client.v1().events().inNamespace(eventNamespace).resource(event).create();
        } catch (KubernetesClientException e) {
            LOG.warn("cannot record Event {} on {} {}: {}", reason, kind, name, e.getMessage());
        }
    }
}
