package io.colocation.broker.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaStatus;
import io.colocation.quota.QuotaTree;
import io.colocation.quota.QuotaUnits;
import io.colocation.quota.ResourceAmounts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The quota tree as its owners and tenants read it ({@code GET /api/v1/quotas}): each ElasticQuota's min and max, and
 * what the k8s-scheduler last wrote on it (its {@code runtime} and {@code request} annotations, {@code status.used}; the
 * broker's leader writes them on a tree over Batch's quotas), in tree order (parents before their children, by name);
 * a tree over Batch's quotas carry their tree, and its YARN leaves their queue. A quota borrows when it uses more than its min on a
 * resource, lends when its runtime is below its min (others use that part).
 */
public final class QuotaListing {
    private QuotaListing() {
    }

    /**
     * One quota. Resource lists are Kubernetes quantity strings; {@code runtime}, {@code request} and {@code used} are
     * null until the scheduler has written them.
     *
     * @param depth     1 for a quota under the root
     * @param tree      the quota's tree-id, null in the default tree
     * @param yarnQueue the YARN leaf queue the quota is, null for a Kubernetes quota
     * @param state     {@code borrowing}, {@code lending}, {@code within} or {@code unknown} (nothing written yet)
     */
    public record Row(String name, String namespace, String parent, int depth, boolean isParent, String tree, String yarnQueue,
            Map<String, String> min, Map<String, String> max, Map<String, String> runtime, Map<String, String> request,
            Map<String, String> used, String state) {
    }

    /** @param unreadable {@code namespace/name} → why, for objects that do not read as ElasticQuotas */
    public record Listing(List<Row> quotas, Map<String, String> unreadable) {
    }

    public static Listing of(List<JsonNode> objects) {
        Map<String, ElasticQuotaSpec> specs = new TreeMap<>();
        Map<String, JsonNode> byName = new TreeMap<>();
        Map<String, String> unreadable = new TreeMap<>();
        for (JsonNode o : objects) {
            try {
                ElasticQuotaSpec spec = ElasticQuotaSpec.read(o);
                specs.putIfAbsent(spec.name(), spec);
                byName.putIfAbsent(spec.name(), o);
            } catch (InvalidInputException e) {
                unreadable.put(o.path("metadata").path("namespace").asText("") + "/" + o.path("metadata").path("name").asText(""), e.getMessage());
            }
        }
        List<Row> rows = new ArrayList<>();
        Set<String> placed = new java.util.HashSet<>();
        add(QuotaTree.ROOT, 1, specs, byName, rows, placed);
        // Quotas whose parent is missing or in a cycle: listed last, at depth 1, so none is hidden.
        for (ElasticQuotaSpec s : specs.values()) {
            if (!placed.contains(s.name())) {
                rows.add(row(s, byName.get(s.name()), 1));
            }
        }
        return new Listing(rows, unreadable);
    }

    private static void add(String parent, int depth, Map<String, ElasticQuotaSpec> specs, Map<String, JsonNode> byName, List<Row> rows,
            Set<String> placed) {
        List<ElasticQuotaSpec> children = specs.values().stream().filter(s -> s.parent().equals(parent) && !placed.contains(s.name()))
                .sorted(Comparator.comparing(ElasticQuotaSpec::name)).toList();
        for (ElasticQuotaSpec c : children) {
            placed.add(c.name());
            rows.add(row(c, byName.get(c.name()), depth));
            add(c.name(), depth + 1, specs, byName, rows, placed);
        }
    }

    private static Row row(ElasticQuotaSpec s, JsonNode object, int depth) {
        JsonNode annotations = object.path("metadata").path("annotations");
        ResourceAmounts runtime = annotation(annotations, QuotaStatus.RUNTIME);
        ResourceAmounts request = annotation(annotations, QuotaStatus.REQUEST);
        ResourceAmounts used = list(object.path("status").path("used"));
        String state = runtime == null || used == null ? "unknown" : exceeds(used, s.min()) ? "borrowing" : exceeds(s.min(), runtime)
                ? "lending" : "within";
        return new Row(s.name(), s.namespace(), s.parent(), depth, s.isParent(), s.treeId().isEmpty() ? null : s.treeId(), s.yarnQueue(),
                QuotaUnits.write(s.min()), QuotaUnits.write(s.max()), write(runtime), write(request), write(used), state);
    }

    /** Whether {@code a} holds more than {@code b} on a resource {@code b} names. */
    private static boolean exceeds(ResourceAmounts a, ResourceAmounts b) {
        return b.names().stream().anyMatch(k -> a.get(k) > b.get(k));
    }

    /** Null until the scheduler wrote it (or when what is there does not read). */
    private static ResourceAmounts annotation(JsonNode annotations, String key) {
        String value = annotations.path(key).asText("");
        return value.isEmpty() ? null : QuotaUnits.readOrNull(value);
    }

    private static ResourceAmounts list(JsonNode list) {
        return list.isMissingNode() || list.isNull() ? null : QuotaUnits.readOrNull(list);
    }

    private static Map<String, String> write(ResourceAmounts amounts) {
        return amounts == null ? null : QuotaUnits.write(amounts);
    }
}
