package io.colocation.quota;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The ElasticQuotas split into trees as Koordinator's multi-tree mode splits them (docs/koordinator-compatibility.md
 * §15.1, gate {@code MultiQuotaTree}): the quotas without a {@code tree-id} form the default tree; those with one, the
 * tree of their {@code is-root} quota, whose {@code total-resource} is that tree's total. A tree over Batch is one
 * such tree: its leaves are Kubernetes quotas and YARN leaf queues ({@link YarnLeaf}).
 *
 * <p>A tree-id without a root, or with two (the second by name), leaves its quotas out, named in {@link #problems()}.
 */
public final class QuotaForest {
    /**
     * One tree with a tree-id.
     *
     * @param members   its quotas, the root among them, by name
     * @param totalNote why the total is not the root's {@code total-resource}, null when it is
     */
    public record Tree(String treeId, ElasticQuotaSpec root, List<ElasticQuotaSpec> members, ResourceAmounts total, String totalNote) {
        public Tree {
            members = List.copyOf(members);
        }

        /**
         * The tree's runtime, its root under Koordinator's root whose runtime is the tree's total (its own
         * GroupQuotaManager: the built-ins of the default tree hold nothing here).
         *
         * @param own each quota's own usage: its pods', or for a YARN leaf its queue's ({@link YarnLeaf#usage})
         */
        public QuotaRuntime runtime(Function<String, QuotaUsage> own, boolean scaleMin) {
            QuotaDirectory directory = QuotaDirectory.of(members, root.namespace(), ResourceAmounts.NONE, ResourceAmounts.NONE);
            return QuotaRuntime.compute(directory, q -> QuotaDirectory.builtin(q) ? QuotaUsage.NONE : own.apply(q), total, scaleMin);
        }

        /**
         * Each member's own usage: a Kubernetes quota's from {@code pods}, a YARN leaf's from its queue's demand
         * ({@code queues} by queue path; null when YARN reports no such queue: no demand).
         */
        public Function<String, QuotaUsage> ownUsage(Function<String, QuotaUsage> pods, Function<String, YarnLeaf.Demand> queues) {
            Map<String, QuotaUsage> own = new java.util.HashMap<>();
            for (ElasticQuotaSpec q : members) {
                if (q.yarnQueue() == null) {
                    own.put(q.name(), pods.apply(q.name()));
                } else {
                    YarnLeaf.Demand d = queues.apply(q.yarnQueue());
                    own.put(q.name(), d == null ? QuotaUsage.NONE : YarnLeaf.usage(q.max(), d));
                }
            }
            return q -> own.getOrDefault(q, QuotaUsage.NONE);
        }
    }

    private final List<ElasticQuotaSpec> defaultTree;
    private final Map<String, Tree> trees;
    private final Map<String, String> problems;

    private QuotaForest(List<ElasticQuotaSpec> defaultTree, Map<String, Tree> trees, Map<String, String> problems) {
        this.defaultTree = defaultTree;
        this.trees = trees;
        this.problems = problems;
    }

    public static QuotaForest of(Collection<ElasticQuotaSpec> quotas) {
        List<ElasticQuotaSpec> plain = new ArrayList<>();
        Map<String, List<ElasticQuotaSpec>> byTree = new TreeMap<>();
        for (ElasticQuotaSpec q : quotas) {
            if (q.treeId().isEmpty()) {
                plain.add(q);
            } else {
                byTree.computeIfAbsent(q.treeId(), t -> new ArrayList<>()).add(q);
            }
        }
        Map<String, Tree> trees = new TreeMap<>();
        Map<String, String> problems = new TreeMap<>();
        for (Map.Entry<String, List<ElasticQuotaSpec>> e : byTree.entrySet()) {
            List<ElasticQuotaSpec> members = new ArrayList<>(e.getValue());
            members.sort(Comparator.comparing(ElasticQuotaSpec::name));
            List<ElasticQuotaSpec> roots = members.stream().filter(ElasticQuotaSpec::isRoot).toList();
            if (roots.isEmpty()) {
                members.forEach(q -> problems.put(q.namespace() + "/" + q.name(), "tree " + e.getKey() + " has no root (a quota with label "
                        + ElasticQuotaSpec.LABEL_IS_ROOT + ": \"true\" and this tree-id)"));
                continue;
            }
            ElasticQuotaSpec root = roots.get(0);
            for (ElasticQuotaSpec second : roots.subList(1, roots.size())) {
                members.remove(second);
                problems.put(second.namespace() + "/" + second.name(), "tree " + e.getKey() + " has its root already: " + root.name());
            }
            ResourceAmounts total = root.totalResource();
            String note = null;
            if (total == null) {
                total = root.min();
                note = "tree root " + root.name() + " has no annotation " + ElasticQuotaSpec.ANNOTATION_TOTAL_RESOURCE
                        + " (the broker writes it): its spec.min is the total, as Koordinator's ElasticQuotaProfile sets min to it";
            }
            trees.put(e.getKey(), new Tree(e.getKey(), root, members, total, note));
        }
        return new QuotaForest(List.copyOf(plain), Collections.unmodifiableMap(trees), Collections.unmodifiableMap(problems));
    }

    /** The quotas of the default tree (no tree-id). */
    public List<ElasticQuotaSpec> defaultTree() {
        return defaultTree;
    }

    /** The trees with a tree-id, by tree-id. */
    public Map<String, Tree> trees() {
        return trees;
    }

    /** Quotas left out of every tree, by {@code namespace/name}, with why. */
    public Map<String, String> problems() {
        return problems;
    }
}
