package io.colocation.scheduler.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.kube.client.Patches;
import io.colocation.scheduler.plugins.coscheduling.PodGroupStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every PodGroup's {@code status} up to date from its members in the informer's cache, as koord-scheduler's
 * controller does ({@link PodGroupStatus}); run by the leader only, one pass per call. A changed status is written with
 * a JSON merge patch to the {@code status} subresource. Without the PodGroup CRD a pass does nothing (warned once).
 */
final class PodGroupStatusController {
    private static final Logger LOG = LoggerFactory.getLogger(PodGroupStatusController.class);
    private static final String API_VERSION = "scheduling.sigs.k8s.io/v1alpha1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final Supplier<Collection<Pod>> pods;
    private final Clock clock;
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);

    PodGroupStatusController(KubernetesClient client, Supplier<Collection<Pod>> pods, Clock clock) {
        this.client = client;
        this.pods = pods;
        this.clock = clock;
    }

    /** One pass over every PodGroup; returns how many statuses were written. */
    int sync() {
        List<GenericKubernetesResource> groups;
        try {
            groups = client.genericKubernetesResources(API_VERSION, "PodGroup").inAnyNamespace().list().getItems();
            warnings.resolved("list");
        } catch (KubernetesClientException e) {
            warnings.warn("list", e.getCode() == 404 ? "the PodGroup CRD (scheduling.sigs.k8s.io) is not installed: no "
                    + "PodGroup status is written" : "cannot list PodGroups: " + e.getMessage());
            return 0;
        }
        Map<String, List<Pod>> members = PodGroupStatus.membersByGroup(pods.get());
        int written = 0;
        for (GenericKubernetesResource group : groups) {
            String ns = group.getMetadata().getNamespace();
            String name = group.getMetadata().getName();
            List<Pod> groupMembers = members.getOrDefault(ns + "/" + name, List.of());
            Map<String, Object> status = map(group.getAdditionalProperties().get("status"));
            Object min = map(group.getAdditionalProperties().get("spec")).get("minMember");
            Map<String, Object> next = PodGroupStatus.next(status, PodGroupStatus.minMember(min), groupMembers,
                    clock.instant());
            if (next.equals(status)) {
                continue;
            }
            try {
                GenericKubernetesResource stub = new GenericKubernetesResource();
                stub.setApiVersion(API_VERSION);
                stub.setKind("PodGroup");
                stub.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace(ns).build());
                Patches.mergeStatus(client, stub, JSON.writeValueAsString(Map.of("status", next)));
                written++;
                if (!String.valueOf(next.get("phase")).equals(String.valueOf(status.get("phase")))) {
                    LOG.info("PodGroup {}/{}: {} -> {} ({} members)", ns, name, status.getOrDefault("phase", "\"\""),
                            next.get("phase"), groupMembers.size());
                }
            } catch (KubernetesClientException | JsonProcessingException e) {
                LOG.warn("PodGroup {}/{}: cannot write its status: {}", ns, name, e.getMessage());
            }
        }
        return written;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
