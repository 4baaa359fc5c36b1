package io.colocation.scheduler.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.kube.client.EventRecorder;
import io.colocation.kube.client.Patches;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.PostFilterPlugin;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a PostFilter's nomination as kube-scheduler's preemption does: the preemptor's
 * {@code status.nominatedNodeName} is set, each victim gets a {@code Preempted} Event and is deleted (with its own grace
 * period, so it stops as it would on a drain); the preemptor comes back from its queue once they are gone.
 */
final class Preemptions {
    static final String PREEMPTED = "Preempted";
    private static final Logger LOG = LoggerFactory.getLogger(Preemptions.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final EventRecorder events;

    Preemptions(KubernetesClient client, EventRecorder events) {
        this.client = client;
        this.events = events;
    }

    void carryOut(Pod preemptor, PostFilterPlugin.Nomination nomination) {
        String key = preemptor.getMetadata().getNamespace() + "/" + preemptor.getMetadata().getName();
        LOG.info("pod {}: {} victim(s) on {}: {}", key, nomination.victims().size(), nomination.node(),
                nomination.victims().stream().map(PodInfo::key).toList());
        try {
            Pod stub = new PodBuilder().withNewMetadata().withName(preemptor.getMetadata().getName())
                    .withNamespace(preemptor.getMetadata().getNamespace()).endMetadata().build();
            Patches.mergeStatus(client, stub, JSON.writeValueAsString(Map.of("status", Map.of("nominatedNodeName", nomination.node()))));
        } catch (KubernetesClientException | JsonProcessingException e) {
            LOG.warn("pod {}: cannot set status.nominatedNodeName {}: {}", key, nomination.node(), e.getMessage());
        }
        for (PodInfo victim : nomination.victims()) {
            Pod v = victim.pod();
            try {
                events.warning(EventRecorder.Involved.of(v), PREEMPTED, "Preempted by " + key + " on node " + nomination.node() + ": "
                        + nomination.why(), null);
                client.pods().inNamespace(v.getMetadata().getNamespace()).withName(v.getMetadata().getName()).delete();
            } catch (KubernetesClientException e) {
                LOG.warn("pod {}: cannot delete its victim {}: {}", key, victim.key(), e.getMessage());
            }
        }
    }
}
