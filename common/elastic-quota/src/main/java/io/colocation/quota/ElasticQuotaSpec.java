package io.colocation.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@code ElasticQuota} ({@code scheduling.sigs.k8s.io/v1alpha1}) read as Koordinator reads it
 * (docs/koordinator-compatibility.md §15.1): {@code spec.min} and {@code spec.max}, the labels {@code parent} (empty:
 * {@link QuotaTree#ROOT}), {@code is-parent} and {@code allow-lent-resource} (lends unless exactly {@code "false"}), and
 * the annotations {@code shared-weight} (absent, not JSON or all zero: the max) and {@code namespaces}; Koordinator's
 * multi-tree labels {@code tree-id} and {@code is-root} with a tree root's {@code total-resource} annotation (§15.1),
 * and ours, {@value #ANNOTATION_YARN_QUEUE}, which makes the quota a YARN leaf queue of a tree over Batch.
 *
 * @param sharedWeightNote why the {@code shared-weight} annotation was not used, null when it was or is absent
 * @param treeId           the {@code tree-id} label, empty in the default tree
 * @param totalResource    a tree root's {@code total-resource} annotation, null when absent
 * @param yarnQueue        the YARN leaf queue's path ({@code root.team-a}), null for a Kubernetes quota
 */
public record ElasticQuotaSpec(String name, String namespace, String parent, boolean isParent, boolean allowLent, ResourceAmounts min,
        ResourceAmounts max, ResourceAmounts sharedWeight, List<String> namespaces, String sharedWeightNote, String treeId,
        boolean isRoot, ResourceAmounts totalResource, String yarnQueue) {
    public static final String API_VERSION = "scheduling.sigs.k8s.io/v1alpha1";
    public static final String KIND = "ElasticQuota";
    public static final String PREFIX = "quota.scheduling.koordinator.sh/";
    public static final String LABEL_PARENT = PREFIX + "parent";
    public static final String LABEL_IS_PARENT = PREFIX + "is-parent";
    public static final String LABEL_ALLOW_LENT_RESOURCE = PREFIX + "allow-lent-resource";
    public static final String ANNOTATION_SHARED_WEIGHT = PREFIX + "shared-weight";
    public static final String ANNOTATION_NAMESPACES = PREFIX + "namespaces";
    public static final String LABEL_TREE_ID = PREFIX + "tree-id";
    public static final String LABEL_IS_ROOT = PREFIX + "is-root";
    public static final String ANNOTATION_TOTAL_RESOURCE = PREFIX + "total-resource";
    /** Ours: the quota is this YARN leaf queue (its path, {@code root.team-a}) in a tree over Batch. */
    public static final String ANNOTATION_YARN_QUEUE = "colocation.io/yarn-queue";
    private static final ObjectMapper JSON = new ObjectMapper();

    public ElasticQuotaSpec {
        namespaces = List.copyOf(namespaces);
    }

    /** A quota of the default tree, a Kubernetes quota. */
    public ElasticQuotaSpec(String name, String namespace, String parent, boolean isParent, boolean allowLent, ResourceAmounts min,
            ResourceAmounts max, ResourceAmounts sharedWeight, List<String> namespaces, String sharedWeightNote) {
        this(name, namespace, parent, isParent, allowLent, min, max, sharedWeight, namespaces, sharedWeightNote, "", false, null, null);
    }

    /** @throws InvalidInputException naming the quota and the field: no name, a quantity that is none, negative or absurd */
    public static ElasticQuotaSpec read(JsonNode quota) throws InvalidInputException {
        JsonNode meta = quota.path("metadata");
        String name = meta.path("name").asText("");
        if (name.isEmpty()) {
            throw new InvalidInputException("an ElasticQuota without metadata.name");
        }
        String namespace = meta.path("namespace").asText("default");
        String where = "ElasticQuota " + namespace + "/" + name;
        ResourceAmounts min = QuotaUnits.read(quota.path("spec").get("min"), where + ": spec.min");
        ResourceAmounts max = QuotaUnits.read(quota.path("spec").get("max"), where + ": spec.max");
        JsonNode labels = meta.path("labels");
        String parent = labels.path(LABEL_PARENT).asText("");
        SharedWeight shared = sharedWeight(meta, max, where);
        ResourceAmounts weight = shared.weight();
        String note = shared.note();
        List<String> namespaces = new ArrayList<>();
        String nsJson = meta.path("annotations").path(ANNOTATION_NAMESPACES).asText("");
        if (!nsJson.isEmpty()) {
            try {
                for (JsonNode n : JSON.readTree(nsJson)) {
                    namespaces.add(n.asText());
                }
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new InvalidInputException(where + ": annotation " + ANNOTATION_NAMESPACES + " is not a JSON list of namespaces ("
                        + firstLine(e.getMessage()) + ")");
            }
        }
        JsonNode annotations = meta.path("annotations");
        ResourceAmounts total = null;
        String totalJson = annotations.path(ANNOTATION_TOTAL_RESOURCE).asText("");
        if (!totalJson.isEmpty()) {
            try {
                total = QuotaUnits.read(JSON.readTree(totalJson), where + ": annotation " + ANNOTATION_TOTAL_RESOURCE);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new InvalidInputException(where + ": annotation " + ANNOTATION_TOTAL_RESOURCE + " is not a JSON ResourceList ("
                        + firstLine(e.getMessage()) + ")");
            }
        }
        String queue = annotations.path(ANNOTATION_YARN_QUEUE).asText("").trim();
        return new ElasticQuotaSpec(name, namespace, parent.isEmpty() ? QuotaTree.ROOT : parent,
                "true".equals(labels.path(LABEL_IS_PARENT).asText("")), !"false".equals(labels.path(LABEL_ALLOW_LENT_RESOURCE).asText("")),
                min, max, weight, namespaces, note, labels.path(LABEL_TREE_ID).asText("").trim(),
                "true".equals(labels.path(LABEL_IS_ROOT).asText("")), total, queue.isEmpty() ? null : queue);
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }

    /**
     * The shared weight an object's {@code shared-weight} annotation gives: the annotation's amounts, or the max when it
     * is absent, all zero or unreadable, with a note saying why (Koordinator falls back so too).
     *
     * @param unreadable why the annotation is not a ResourceList of amounts not below 0 (what the webhook refuses); null
     *                   when it is one or absent
     */
    public record SharedWeight(ResourceAmounts weight, String note, String unreadable) {
    }

    /** @param meta the object's {@code metadata} */
    public static SharedWeight sharedWeight(JsonNode meta, ResourceAmounts max, String where) {
        String json = meta.path("annotations").path(ANNOTATION_SHARED_WEIGHT).asText("");
        if (json.isEmpty()) {
            return new SharedWeight(max, null, null);
        }
        try {
            ResourceAmounts given = QuotaUnits.read(JSON.readTree(json), where + ": annotation " + ANNOTATION_SHARED_WEIGHT);
            return given.asMap().values().stream().anyMatch(v -> v > 0) ? new SharedWeight(given, null, null)
                    : new SharedWeight(max, ANNOTATION_SHARED_WEIGHT + " is all zero: the max is the shared weight", null);
        } catch (InvalidInputException | com.fasterxml.jackson.core.JsonProcessingException e) {
            return new SharedWeight(max, ANNOTATION_SHARED_WEIGHT + " is not a JSON ResourceList (" + firstLine(e.getMessage())
                    + "): the max is the shared weight, as Koordinator does", firstLine(e.getMessage()));
        }
    }

    /** The quota in the runtime's terms, with the requests of its own pods. */
    public Quota withRequest(ResourceAmounts ownRequest) {
        return new Quota(name, parent, allowLent, min, max, sharedWeight, ownRequest.masked(max.names()));
    }
}
