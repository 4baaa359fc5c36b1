package io.colocation.quota;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * What the validating webhook refuses of an ElasticQuota being written (docs/koordinator-compatibility.md §15.2,
 * Koordinator's {@code quota_topology_check.go}), each problem naming the rule: the built-in root and system quotas are
 * not written; min within max, per resource, and only on resources max names; a shared weight that is a JSON
 * ResourceList without negative amounts; names unique over all namespaces; the parent exists, is a parent, and is
 * not the quota itself or one of its descendants; a child's max names no resource its parent's max lacks; the
 * children's mins sum to no more than their parent's min (not under the root, and not with {@code allow-force-update});
 * {@code is-parent} not turned off while the quota has children, nor on while pods use it; no quota with children
 * deleted. Multi-tree (Koordinator's {@code tree-id} and {@code is-root}): a tree root has a tree-id and sits under
 * the root; every other quota is in its parent's tree; only a tree root has a {@code total-resource}; the mins of a
 * tree root's children are not summed against its min, which the broker keeps as the tree's total. A YARN leaf
 * ({@value ElasticQuotaSpec#ANNOTATION_YARN_QUEUE}): in a tree, not a parent, no {@code namespaces}, a queue path under
 * {@code root}, no other leaf naming that queue or one above or below it, a max naming a CPU and a memory resource.
 * Quantities that are not quantities, negative or beyond 64 bits are {@link ElasticQuotaSpec#read}'s errors.
 */
public final class QuotaValidation {
    public static final String LABEL_ALLOW_FORCE_UPDATE = ElasticQuotaSpec.PREFIX + "allow-force-update";

    private QuotaValidation() {
    }

    /**
     * The problems of writing {@code next} (created when {@code old} is null) beside the quotas that exist.
     *
     * @param raw       the object as submitted (its shared-weight annotation and labels are read strictly here)
     * @param existing  every ElasticQuota stored now ({@code old} among them on an update)
     * @param usedByPods whether any pod belongs to the quota now (asked only when {@code is-parent} turns on)
     */
    public static List<String> problems(ElasticQuotaSpec next, ElasticQuotaSpec old, JsonNode raw, Collection<ElasticQuotaSpec> existing,
            BooleanSupplier usedByPods) {
        List<String> out = new ArrayList<>();
        String name = next.name();
        if (name.equals(QuotaTree.ROOT) || name.equals(QuotaDirectory.SYSTEM)) {
            out.add(name + " is built in: the scheduler keeps it, it cannot be written");
            return out;
        }
        for (String k : next.min().names()) {
            if (!next.max().has(k)) {
                out.add("spec.min." + k + ": spec.max has no " + k + " (min's resources must be max's)");
            } else if (next.min().get(k) > next.max().get(k)) {
                out.add("spec.min." + k + " is above spec.max." + k + " (" + QuotaAdmission.print(next.min().masked(Set.of(k)))
                        + " > " + QuotaAdmission.print(next.max().masked(Set.of(k))) + ")");
            }
        }
        String unreadable = ElasticQuotaSpec.sharedWeight(raw.path("metadata"), next.max(), "ElasticQuota "
                + next.namespace() + "/" + name).unreadable();
        if (unreadable != null) {
            out.add("annotation " + ElasticQuotaSpec.ANNOTATION_SHARED_WEIGHT + " must be a JSON ResourceList of amounts not below 0: "
                    + unreadable);
        }
        Map<String, ElasticQuotaSpec> byName = new HashMap<>();
        for (ElasticQuotaSpec q : existing) {
            if (q.name().equals(name) && !q.namespace().equals(next.namespace())) {
                out.add("the name is taken: ElasticQuota " + q.namespace() + "/" + name + " exists (quota names are one tree over all"
                        + " namespaces)");
            }
            byName.put(q.name(), q);
        }
        byName.put(name, next);
        boolean forced = "true".equals(raw.path("metadata").path("labels").path(LABEL_ALLOW_FORCE_UPDATE).asText(""));
        checkParent(next, byName, forced, out);
        List<ElasticQuotaSpec> children = byName.values().stream().filter(q -> q.parent().equals(name)).toList();
        if (!forced && !children.isEmpty() && !next.isRoot()) {
            sumOfMins(next, children, out);
        }
        checkTree(next, byName, children, out);
        checkYarnLeaf(next, byName, out);
        if (old != null && old.isParent() && !next.isParent() && !children.isEmpty()) {
            out.add("label " + ElasticQuotaSpec.LABEL_IS_PARENT + " cannot turn off: the quota has children ("
                    + String.join(", ", children.stream().map(ElasticQuotaSpec::name).sorted().toList()) + ")");
        }
        if (old != null && !old.isParent() && next.isParent() && usedByPods.getAsBoolean()) {
            out.add("label " + ElasticQuotaSpec.LABEL_IS_PARENT + " cannot turn on: pods belong to the quota (a parent holds no pods)");
        }
        return out;
    }

    /** The problems of deleting {@code old}: a built-in quota, or one with children (they would lose their parent). */
    public static List<String> deleteProblems(ElasticQuotaSpec old, Collection<ElasticQuotaSpec> existing) {
        if (old.name().equals(QuotaTree.ROOT) || old.name().equals(QuotaDirectory.SYSTEM)) {
            return List.of(old.name() + " is built in: the scheduler keeps it, it cannot be deleted");
        }
        List<String> children = existing.stream().filter(q -> q.parent().equals(old.name())).map(ElasticQuotaSpec::name).sorted().toList();
        return children.isEmpty() ? List.of() : List.of("the quota has children (" + String.join(", ", children)
                + "): delete or move them first");
    }

    private static void checkParent(ElasticQuotaSpec next, Map<String, ElasticQuotaSpec> byName, boolean forced, List<String> out) {
        String parentName = next.parent();
        if (parentName.equals(QuotaTree.ROOT)) {
            return;
        }
        String label = "label " + ElasticQuotaSpec.LABEL_PARENT + " " + parentName;
        ElasticQuotaSpec parent = byName.get(parentName);
        if (parentName.equals(next.name())) {
            out.add(label + ": a quota cannot be its own parent");
            return;
        }
        if (parent == null) {
            out.add(label + ": no such ElasticQuota");
            return;
        }
        if (!parent.isParent()) {
            out.add(label + ": that quota is not a parent (label " + ElasticQuotaSpec.LABEL_IS_PARENT + ": \"true\")");
        }
        Set<String> seen = new HashSet<>();
        for (ElasticQuotaSpec at = parent; at != null && !at.parent().equals(QuotaTree.ROOT); at = byName.get(at.parent())) {
            if (at.parent().equals(next.name()) || !seen.add(at.name())) {
                out.add(label + ": a cycle (" + next.name() + " would be its own ancestor)");
                return;
            }
        }
        for (String k : next.max().names()) {
            if (!parent.max().has(k)) {
                out.add("spec.max." + k + ": its parent " + parentName + "'s max has no " + k);
            }
        }
        if (!forced && !parent.isRoot()) {
            sumOfMins(parent, byName.values().stream().filter(q -> q.parent().equals(parentName)).toList(), out);
        }
    }

    /** Koordinator's multi-tree rules: a tree root with a tree-id under the root, the others in their parent's tree. */
    private static void checkTree(ElasticQuotaSpec next, Map<String, ElasticQuotaSpec> byName, List<ElasticQuotaSpec> children,
            List<String> out) {
        String tree = next.treeId();
        if (next.isRoot()) {
            if (tree.isEmpty()) {
                out.add("label " + ElasticQuotaSpec.LABEL_IS_ROOT + ": a tree root needs a " + ElasticQuotaSpec.LABEL_TREE_ID + " label");
            }
            if (!next.parent().equals(QuotaTree.ROOT)) {
                out.add("label " + ElasticQuotaSpec.LABEL_IS_ROOT + ": a tree root sits under " + QuotaTree.ROOT + " (no "
                        + ElasticQuotaSpec.LABEL_PARENT + " label), not under " + next.parent());
            }
        } else {
            if (next.totalResource() != null) {
                out.add("annotation " + ElasticQuotaSpec.ANNOTATION_TOTAL_RESOURCE + ": only a tree root (label "
                        + ElasticQuotaSpec.LABEL_IS_ROOT + ": \"true\") has a total");
            }
            ElasticQuotaSpec parent = byName.get(next.parent());
            String parentTree = parent == null ? "" : parent.treeId();
            if (!next.parent().equals(QuotaTree.ROOT) && parent != null && !parentTree.equals(tree)) {
                out.add("label " + ElasticQuotaSpec.LABEL_TREE_ID + " " + describeTree(tree) + ": its parent " + parent.name() + " is in "
                        + describeTree(parentTree) + " (a quota is in its parent's tree)");
            } else if (next.parent().equals(QuotaTree.ROOT) && !tree.isEmpty()) {
                out.add("label " + ElasticQuotaSpec.LABEL_TREE_ID + " " + tree + ": a quota of a tree sits under its tree's root (label "
                        + ElasticQuotaSpec.LABEL_IS_ROOT + ": \"true\" on the root)");
            }
        }
        List<String> elsewhere = children.stream().filter(c -> !c.treeId().equals(tree)).map(ElasticQuotaSpec::name).sorted().toList();
        if (!elsewhere.isEmpty()) {
            out.add("label " + ElasticQuotaSpec.LABEL_TREE_ID + " " + describeTree(tree) + ": its children " + String.join(", ", elsewhere)
                    + " are in another tree (a quota is in its parent's tree)");
        }
    }

    private static String describeTree(String treeId) {
        return treeId.isEmpty() ? "(none: the default tree)" : treeId;
    }

    /** A YARN leaf: a leaf queue of its own in a tree, with the two resources YARN's absolute capacities name. */
    private static void checkYarnLeaf(ElasticQuotaSpec next, Map<String, ElasticQuotaSpec> byName, List<String> out) {
        String queue = next.yarnQueue();
        if (queue == null) {
            return;
        }
        String at = "annotation " + ElasticQuotaSpec.ANNOTATION_YARN_QUEUE + " " + queue;
        if (!YarnLeaf.validPath(queue)) {
            out.add(at + ": not a queue path under root (root.team-a: dot-separated names without spaces, ':', ',', '=' or brackets)");
        }
        if (next.isParent()) {
            out.add(at + ": a YARN leaf queue is a leaf of the tree (no label " + ElasticQuotaSpec.LABEL_IS_PARENT + ")");
        }
        if (!next.namespaces().isEmpty()) {
            out.add(at + ": a quota is a YARN leaf or a Kubernetes quota, not both (it has annotation "
                    + ElasticQuotaSpec.ANNOTATION_NAMESPACES + ")");
        }
        if (next.treeId().isEmpty()) {
            out.add(at + ": a YARN leaf belongs to a tree over Batch (label " + ElasticQuotaSpec.LABEL_TREE_ID + ", under a tree root)");
        }
        if (YarnLeaf.cpuName(next.max()) == null || YarnLeaf.memoryName(next.max()) == null) {
            out.add(at + ": spec.max names no " + (YarnLeaf.cpuName(next.max()) == null ? "CPU" : "memory") + " resource ("
                    + String.join(" or ", YarnLeaf.CPU_NAMES) + "; " + String.join(" or ", YarnLeaf.MEMORY_NAMES)
                    + "): YARN's absolute capacities give both");
        }
        for (ElasticQuotaSpec q : byName.values()) {
            String other = q.yarnQueue();
            if (q.name().equals(next.name()) || other == null) {
                continue;
            }
            if (other.equals(queue)) {
                out.add(at + ": ElasticQuota " + q.namespace() + "/" + q.name() + " is that queue already");
            } else if (other.startsWith(queue + ".") || queue.startsWith(other + ".")) {
                out.add(at + ": ElasticQuota " + q.namespace() + "/" + q.name() + " is queue " + other + ", " + (other.startsWith(queue + ".")
                        ? "below" : "above") + " this one (YARN leaves are leaf queues)");
            }
        }
    }

    /** Σ children's min ≤ the parent's min, per resource of the parent's min. */
    private static void sumOfMins(ElasticQuotaSpec parent, List<ElasticQuotaSpec> children, List<String> out) {
        ResourceAmounts sum = ResourceAmounts.NONE;
        for (ElasticQuotaSpec c : children) {
            sum = sum.plus(c.min());
        }
        for (String k : sum.names()) {
            if (sum.get(k) > parent.min().get(k)) {
                out.add("the children of " + parent.name() + " ask min " + QuotaAdmission.print(sum.masked(Set.of(k))) + " in all, above its min "
                        + QuotaAdmission.print(parent.min().masked(Set.of(k))));
            }
        }
    }
}
