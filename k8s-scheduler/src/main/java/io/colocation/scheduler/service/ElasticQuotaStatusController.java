package io.colocation.scheduler.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.kube.client.Patches;
import io.colocation.quota.ElasticQuotaObjects;
import io.colocation.quota.QuotaRuntime;
import io.colocation.quota.QuotaStatus;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.plugins.elasticquota.ElasticQuota;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what the scheduler computed of each ElasticQuota on its object, as koord-scheduler's ElasticQuotaController
 * does every second ({@link QuotaStatus}): the five annotations with a merge patch of the object, {@code status.used}
 * with a merge patch of its status subresource, each only when it changed. Run by the leader only, one pass per call.
 */
final class ElasticQuotaStatusController {
    private static final Logger LOG = LoggerFactory.getLogger(ElasticQuotaStatusController.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final ElasticQuota plugin;
    private final Handle.ElasticQuotas quotas;
    private final Supplier<Map<String, Long>> clusterTotal;

    /** @param clusterTotal the nodes' allocatable summed, as the scheduling cycle's snapshot has it */
    ElasticQuotaStatusController(KubernetesClient client, ElasticQuota plugin, Handle.ElasticQuotas quotas,
            Supplier<Map<String, Long>> clusterTotal) {
        this.client = client;
        this.plugin = plugin;
        this.quotas = quotas;
        this.clusterTotal = clusterTotal;
    }

    /** One pass over every ElasticQuota object; returns how many writes it made. */
    int sync() {
        ElasticQuota.View view = plugin.view(clusterTotal.get());
        int written = 0;
        for (GenericKubernetesResource o : quotas.objects()) {
            String ns = o.getMetadata().getNamespace();
            String name = o.getMetadata().getName();
            QuotaRuntime.Entry e = view.runtime().get(name);
            if (e == null || !e.spec().namespace().equals(ns)) {
                continue; // left out of the tree: the plugin logged why
            }
            QuotaStatus status = QuotaStatus.of(e.state(), view.usage().get(name));
            Map<String, String> annotations = status.changedAnnotations(o.getMetadata().getAnnotations());
            JsonNode used = JSON.valueToTree(o.getAdditionalProperties().get("status")).path("used");
            try {
                if (!annotations.isEmpty()) {
                    Patches.merge(client, ElasticQuotaObjects.stub(ns, name), JSON.writeValueAsString(Map.of("metadata", Map.of("annotations", annotations))));
                    written++;
                }
                if (status.usedChanged(used.isMissingNode() ? null : used)) {
                    Patches.mergeStatus(client, ElasticQuotaObjects.stub(ns, name), JSON.writeValueAsString(Map.of("status", Map.of("used", usedPatch(status, used)))));
                    written++;
                    LOG.debug("ElasticQuota {}/{}: used {}", ns, name, status.usedList());
                }
            } catch (KubernetesClientException | JsonProcessingException ex) {
                LOG.warn("ElasticQuota {}/{}: cannot write its status: {}", ns, name, ex.getMessage());
            }
        }
        return written;
    }

    /** The new used, and null for each resource the object has and the quota no longer uses (a merge patch keeps what it does not name). */
    private static Map<String, String> usedPatch(QuotaStatus status, JsonNode was) {
        Map<String, String> patch = new HashMap<>(status.usedList());
        for (Iterator<String> it = was.fieldNames(); it.hasNext();) {
            patch.putIfAbsent(it.next(), null);
        }
        return patch;
    }
}
