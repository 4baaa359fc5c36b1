package io.colocation.broker.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.ledger.Ledger;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.kube.client.ApiErrors;
import io.colocation.model.Resources;
import io.colocation.kube.client.Patches;
import io.colocation.quota.ElasticQuotaObjects;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaStatus;
import io.colocation.quota.QuotaUnits;
import io.colocation.quota.ResourceAmounts;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader keeps every tree over Batch's {@code total-resource} ({@link TreeTotal}) from the ledger's Batch origin,
 * one list of the ElasticQuotas a round. No ElasticQuota CRD: nothing to keep, said once.
 */
public final class TreeTotalKeeper {
    private static final Logger LOG = LoggerFactory.getLogger(TreeTotalKeeper.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final KubernetesClient client;
    private final Ledger ledger;
    private final LeaderEpoch leadership;
    private final DoubleSupplier diffThreshold;
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);

    /** @param diffThreshold the colocation config's {@code resourceDiffThreshold} now */
    public TreeTotalKeeper(KubernetesClient client, Ledger ledger, LeaderEpoch leadership, DoubleSupplier diffThreshold) {
        this.client = client;
        this.ledger = ledger;
        this.leadership = leadership;
        this.diffThreshold = diffThreshold;
    }

    /**
     * An ElasticQuota as listed: its spec (its total as listed), the runtime and request annotations and
     * {@code status.used} it carries (null: none, or not a ResourceList).
     */
    public record Listed(ElasticQuotaSpec spec, ResourceAmounts runtime, ResourceAmounts request, ResourceAmounts used) {
        public static Listed of(JsonNode object) throws InvalidInputException {
            JsonNode annotations = object.path("metadata").path("annotations");
            String request = annotations.path(QuotaStatus.REQUEST).asText("");
            JsonNode used = object.path("status").path("used");
            return new Listed(ElasticQuotaSpec.read(object), QuotaStatus.runtimeOf(object), request.isEmpty() ? null : QuotaUnits.readOrNull(request),
                    used.isMissingNode() || used.isNull() ? null : QuotaUnits.readOrNull(used));
        }
    }

    /**
     * One round. Does nothing on a standby.
     *
     * @return the ElasticQuotas listed that read, for the rest of the round; null when none were listed
     */
    public List<Listed> reconcile() {
        if (leadership.fence().isEmpty()) {
            return null;
        }
        List<GenericKubernetesResource> quotas;
        try {
            quotas = client.genericKubernetesResources(ElasticQuotaSpec.API_VERSION, ElasticQuotaSpec.KIND).inAnyNamespace().list().getItems();
            warnings.resolved("list");
        } catch (KubernetesClientException e) {
            warnings.warn("list", e.getCode() == 404 ? "no ElasticQuota CRD in this cluster: no tree over Batch to keep the total of"
                    : "cannot list the ElasticQuotas to keep the trees' totals: " + ApiErrors.describe(e));
            return null;
        }
        List<Listed> listed = new java.util.ArrayList<>();
        Resources origin = Resources.ZERO;
        for (NodeLedger n : ledger.all()) {
            origin = origin.plus(n.origin());
        }
        for (GenericKubernetesResource r : quotas) {
            ObjectNode object = Serialization.jsonMapper().valueToTree(r);
            try {
                listed.add(Listed.of(object.deepCopy()));
            } catch (InvalidInputException e) {
                // named below, or by the scheduler
            }
            JsonNode annotations = object.path("metadata").path("annotations");
            String written = annotations.path(ElasticQuotaSpec.ANNOTATION_TOTAL_RESOURCE).asText(null);
            if (written != null) { // read apart, so that a total that does not read is written over, not a reason to skip
                ((ObjectNode) annotations).remove(ElasticQuotaSpec.ANNOTATION_TOTAL_RESOURCE);
            }
            try {
                ElasticQuotaSpec root = ElasticQuotaSpec.read(object);
                if (TreeTotal.kept(root)) {
                    keep(root, written == null ? null : QuotaUnits.readOrNull(written), origin);
                }
            } catch (InvalidInputException e) {
                // a quota that does not read is its writer's to fix (the webhook refuses it); the scheduler names it
            }
        }
        return listed;
    }

    /** @param written the total written now, null when absent or unreadable */
    private void keep(ElasticQuotaSpec root, ResourceAmounts written, Resources origin) {
        ResourceAmounts desired = TreeTotal.of(root, origin);
        String why = TreeTotal.reason(written, desired, diffThreshold.getAsDouble());
        String subject = root.namespace() + "/" + root.name();
        if (why == null) {
            return;
        }
        String total = QuotaStatus.json(desired);
        try {
            annotate(client, root, Map.of(ElasticQuotaSpec.ANNOTATION_TOTAL_RESOURCE, total));
            warnings.resolved(subject);
            LOG.info("tree {} (root {}): total {} ({})", root.treeId(), subject, total, why);
        } catch (KubernetesClientException e) {
            warnings.warn(subject, "cannot write the total of tree " + root.treeId() + ": " + ApiErrors.describe(e));
        }
    }

    /** Merge-patches annotations of the quota's object. */
    static void annotate(KubernetesClient client, ElasticQuotaSpec quota, Map<String, String> annotations) {
        Patches.merge(client, ElasticQuotaObjects.stub(quota.namespace(), quota.name()), json(Map.of("metadata", Map.of("annotations", annotations))));
    }

    /** Merge-patches {@code status.used} through the status subresource (a resource it had and no longer has: null). */
    static void writeUsed(KubernetesClient client, ElasticQuotaSpec quota, Map<String, String> used) {
        Patches.mergeStatus(client, ElasticQuotaObjects.stub(quota.namespace(), quota.name()), json(Map.of("status", Map.of("used", used))));
    }

    private static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a map of strings is always JSON", e);
        }
    }
}
