package io.colocation.quota;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One tree's quotas as the scheduler decides on them (docs/koordinator-compatibility.md §15.3): the built-ins and every
 * quota with its state ({@link QuotaTree}) and usage. The root's runtime is the cluster's total less what the system
 * and default quotas use (theirs is their max, outside the sharing; subtracted once). A quota's usage is its own
 * pods' and its children's, so a parent's used is its subtree's.
 */
public final class QuotaRuntime {
    /**
     * @param usage    own pods and children: what {@code status.used} and the PreFilter check read
     * @param children the names of its children, in name order
     */
    public record Entry(ElasticQuotaSpec spec, QuotaState state, QuotaUsage usage, List<String> children) {
    }

    private final Map<String, Entry> entries;
    private final Map<String, String> problems;

    private QuotaRuntime(Map<String, Entry> entries, Map<String, String> problems) {
        this.entries = entries;
        this.problems = problems;
    }

    /**
     * @param own          each quota's own pods' usage ({@link QuotaBook#usage()})
     * @param clusterTotal Σ of the nodes' allocatable, every resource name
     * @param scaleMin     Koordinator's {@code enableMinQuotaScale}
     */
    public static QuotaRuntime compute(QuotaDirectory directory, Map<String, QuotaUsage> own, ResourceAmounts clusterTotal,
            boolean scaleMin) {
        List<Quota> shared = new ArrayList<>();
        ResourceAmounts outside = ResourceAmounts.NONE;
        for (ElasticQuotaSpec q : directory.quotas()) {
            QuotaUsage u = own.getOrDefault(q.name(), QuotaUsage.NONE);
            if (QuotaDirectory.builtin(q.name())) {
                outside = outside.plus(u.used());
            } else {
                shared.add(q.withRequest(u.request()));
            }
        }
        ResourceAmounts total = clusterTotal.minusNonNegative(outside);
        QuotaTree tree = QuotaTree.compute(shared, total, scaleMin);
        Map<String, String> problems = new TreeMap<>(directory.problems());
        problems.putAll(tree.problems());

        Map<String, List<String>> children = new TreeMap<>();
        Set<String> rootKeys = new HashSet<>();
        for (ElasticQuotaSpec q : directory.quotas()) {
            if (QuotaDirectory.builtin(q.name()) || tree.states().containsKey(q.name())) {
                children.computeIfAbsent(q.parent(), p -> new ArrayList<>()).add(q.name());
                rootKeys.addAll(q.max().names());
            }
        }
        children.values().forEach(Collections::sort);
        Map<String, Entry> out = new LinkedHashMap<>();
        String quotaNamespace = directory.get(QuotaDirectory.DEFAULT).namespace();
        ElasticQuotaSpec rootSpec = new ElasticQuotaSpec(QuotaTree.ROOT, quotaNamespace, "", true, false, ResourceAmounts.NONE,
                ResourceAmounts.NONE, ResourceAmounts.NONE, List.of(), null);
        out.put(QuotaTree.ROOT, null); // first in tree order
        ResourceAmounts topRequest = ResourceAmounts.NONE;
        QuotaUsage rootUsage = QuotaUsage.NONE;
        for (String name : children.getOrDefault(QuotaTree.ROOT, List.of())) {
            QuotaUsage u = visit(name, directory, own, tree, children, out);
            if (!QuotaDirectory.builtin(name)) {
                rootUsage = rootUsage.plus(u);
                topRequest = topRequest.plus(out.get(name).state().limitedRequest());
            }
        }
        ResourceAmounts rootTotal = total.masked(rootKeys);
        out.put(QuotaTree.ROOT, new Entry(rootSpec, new QuotaState(topRequest, topRequest, topRequest, ResourceAmounts.NONE,
                rootTotal), rootUsage, children.getOrDefault(QuotaTree.ROOT, List.of())));
        return new QuotaRuntime(Collections.unmodifiableMap(out), Collections.unmodifiableMap(problems));
    }

    /** Depth first from {@code name}: its entry and its subtree's; returns its usage (own pods and children). */
    private static QuotaUsage visit(String name, QuotaDirectory directory, Map<String, QuotaUsage> own, QuotaTree tree,
            Map<String, List<String>> children, Map<String, Entry> out) {
        ElasticQuotaSpec spec = directory.get(name);
        QuotaState state;
        if (QuotaDirectory.builtin(name)) {
            ResourceAmounts r = own.getOrDefault(name, QuotaUsage.NONE).request();
            state = new QuotaState(r, r, r.cappedAt(spec.max()), spec.min(), spec.max());
        } else {
            state = tree.states().get(name);
        }
        out.put(name, null); // keeps tree order: the quota before its children
        List<String> kids = children.getOrDefault(name, List.of());
        for (String c : kids) {
            visit(c, directory, own, tree, children, out);
        }
        QuotaUsage u = withChildren(own.getOrDefault(name, QuotaUsage.NONE), spec, kids, c -> out.get(c).usage());
        out.put(name, new Entry(spec, state, u, kids));
        return u;
    }

    /** A quota's own usage plus each child's, masked to the quota's max names (Koordinator passes a child's used up so). */
    private static QuotaUsage withChildren(QuotaUsage own, ElasticQuotaSpec spec, List<String> children,
            Function<String, QuotaUsage> childUsage) {
        QuotaUsage u = own;
        for (String c : children) {
            u = u.plus(childUsage.apply(c).masked(spec.max().names()));
        }
        return u;
    }

    /** {@code quota}'s usage, its subtree's included, as {@code own} has each quota's own pods now (placements since this tree). */
    public QuotaUsage usage(String quota, Function<String, QuotaUsage> own) {
        Entry e = entries.get(quota);
        return e == null ? own.apply(quota) : withChildren(own.apply(quota), e.spec(), e.children(), c -> usage(c, own));
    }

    /** The quota's entry; null when it is not in the tree. */
    public Entry get(String name) {
        return entries.get(name);
    }

    /** Every quota in tree order: the root, then depth first, children by name. */
    public List<Entry> entries() {
        return List.copyOf(entries.values());
    }

    /** Quotas left out of the tree (a missing parent, a cycle, a name taken), with why. */
    public Map<String, String> problems() {
        return problems;
    }
}
