package io.colocation.quota;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One tree's quotas as the scheduler decides on them (docs/koordinator-compatibility.md §15.3): the built-ins and every
 * quota with its state ({@link QuotaTree}). The root's runtime is the cluster's total less what the system and default
 * quotas use (theirs is their max, outside the sharing; subtracted once). A quota's usage is its own pods' and its
 * children's, so a parent's used is its subtree's.
 *
 * <p>Immutable. {@link #updated} gives the runtime after some quotas' specs or own requests, or the cluster's total,
 * changed, recomputing only what they affect ({@link QuotaTree#updated}); it equals {@link #compute} on the same input.
 */
public final class QuotaRuntime {
    /** @param children the names of its children, in name order */
    public record Entry(ElasticQuotaSpec spec, QuotaState state, List<String> children) {
        /**
         * The entry as explain shows it, resource lists as Koordinator's annotations write them: name, namespace,
         * parent, min, max, sharedWeight, request, autoScaleMin, runtime and {@code used}; a YARN leaf's queue too.
         */
        public Map<String, Object> explained(ResourceAmounts used) {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("name", spec.name());
            q.put("namespace", spec.namespace());
            q.put("parent", spec.parent());
            if (spec.yarnQueue() != null) {
                q.put("yarnQueue", spec.yarnQueue());
            }
            q.put("min", QuotaUnits.write(spec.min()));
            q.put("max", QuotaUnits.write(spec.max()));
            q.put("sharedWeight", QuotaUnits.write(spec.sharedWeight()));
            q.put("request", QuotaUnits.write(state.request()));
            q.put("autoScaleMin", QuotaUnits.write(state.autoScaleMin()));
            q.put("runtime", QuotaUnits.write(state.runtime()));
            q.put("used", QuotaUnits.write(used));
            return q;
        }
    }

    private final QuotaDirectory directory;
    private final QuotaTree tree;
    private final List<String> order; // tree order: the root, then depth first, children by name
    private final Map<String, Entry> entries;
    private final Set<String> rootKeys; // every quota's max names
    private final Map<String, String> problems;

    private QuotaRuntime(QuotaDirectory directory, QuotaTree tree, List<String> order, Map<String, Entry> entries, Set<String> rootKeys,
            Map<String, String> problems) {
        this.directory = directory;
        this.tree = tree;
        this.order = order;
        this.entries = entries;
        this.rootKeys = rootKeys;
        this.problems = problems;
    }

    /**
     * @param own          each quota's own pods' usage ({@link QuotaBook#usage(String)})
     * @param clusterTotal Σ of the nodes' allocatable, every resource name
     * @param scaleMin     Koordinator's {@code enableMinQuotaScale}
     */
    public static QuotaRuntime compute(QuotaDirectory directory, Function<String, QuotaUsage> own, ResourceAmounts clusterTotal,
            boolean scaleMin) {
        List<Quota> shared = new ArrayList<>();
        for (ElasticQuotaSpec q : directory.quotas()) {
            if (!QuotaDirectory.builtin(q.name())) {
                shared.add(q.withRequest(own.apply(q.name()).request()));
            }
        }
        QuotaTree tree = QuotaTree.compute(shared, sharedTotal(clusterTotal, own), scaleMin);
        Map<String, String> problems = new TreeMap<>(directory.problems());
        problems.putAll(tree.problems());

        Map<String, List<String>> children = new TreeMap<>();
        for (ElasticQuotaSpec q : directory.quotas()) {
            if (QuotaDirectory.builtin(q.name()) || tree.states().containsKey(q.name())) {
                children.computeIfAbsent(q.parent(), p -> new ArrayList<>()).add(q.name());
            }
        }
        children.values().forEach(Collections::sort);
        Map<String, Entry> out = new LinkedHashMap<>();
        out.put(QuotaTree.ROOT, null); // first in tree order
        Set<String> rootKeys = new HashSet<>();
        for (String name : children.getOrDefault(QuotaTree.ROOT, List.of())) {
            visit(name, directory, own, tree, children, out);
        }
        out.values().forEach(e -> {
            if (e != null) {
                rootKeys.addAll(e.spec().max().names());
            }
        });
        List<String> order = List.copyOf(out.keySet());
        Map<String, Entry> entries = new HashMap<>(out);
        entries.put(QuotaTree.ROOT, root(directory, entries, clusterTotal, own, children.getOrDefault(QuotaTree.ROOT, List.of()), rootKeys));
        return new QuotaRuntime(directory, tree, order, entries, Collections.unmodifiableSet(rootKeys), Collections.unmodifiableMap(problems));
    }

    /**
     * This runtime with {@code directory} and {@code clusterTotal} now, where only the quotas named in {@code changed}
     * have another spec or other own requests. Computed anew when the directory holds other quotas, another problem, or
     * a changed quota under another parent.
     */
    public QuotaRuntime updated(QuotaDirectory next, Collection<String> changed, Function<String, QuotaUsage> own,
            ResourceAmounts clusterTotal) {
        if (!sameShape(next, changed)) {
            return compute(next, own, clusterTotal, tree.scaleMin());
        }
        List<Quota> shared = new ArrayList<>();
        for (String name : changed) {
            if (!QuotaDirectory.builtin(name)) {
                shared.add(next.get(name).withRequest(own.apply(name).request()));
            }
        }
        QuotaTree nextTree = tree.updated(shared, sharedTotal(clusterTotal, own));
        Map<String, Entry> out = new HashMap<>(entries);
        Set<String> revisit = new HashSet<>(nextTree.touched() == null ? nextTree.states().keySet() : nextTree.touched());
        revisit.addAll(changed);
        revisit.add(QuotaDirectory.SYSTEM);
        revisit.add(QuotaDirectory.DEFAULT);
        for (String name : revisit) {
            Entry was = out.get(name);
            if (was != null && !name.equals(QuotaTree.ROOT)) {
                QuotaState state = QuotaDirectory.builtin(name) ? builtinState(next.get(name), own) : nextTree.states().get(name);
                out.put(name, new Entry(next.get(name), state, was.children()));
            }
        }
        out.put(QuotaTree.ROOT, root(next, out, clusterTotal, own, entries.get(QuotaTree.ROOT).children(), rootKeys));
        return new QuotaRuntime(next, nextTree, order, out, rootKeys, problems);
    }

    /** Whether {@code next} differs from this runtime's directory only in the changed quotas' amounts and lending. */
    private boolean sameShape(QuotaDirectory next, Collection<String> changed) {
        if (!next.problems().equals(directory.problems()) || next.quotas().size() != directory.quotas().size()) {
            return false;
        }
        for (String name : changed) {
            ElasticQuotaSpec was = directory.get(name);
            ElasticQuotaSpec now = next.get(name);
            if (was == null || now == null || !was.parent().equals(now.parent()) || !was.max().names().equals(now.max().names())) {
                return false;
            }
        }
        return true;
    }

    /** The root's runtime: the cluster's total less what the built-ins hold. */
    private static ResourceAmounts sharedTotal(ResourceAmounts clusterTotal, Function<String, QuotaUsage> own) {
        return clusterTotal.minusNonNegative(own.apply(QuotaDirectory.SYSTEM).used().plus(own.apply(QuotaDirectory.DEFAULT).used()));
    }

    /** Depth first from {@code name}: its entry and its subtree's. */
    private static void visit(String name, QuotaDirectory directory, Function<String, QuotaUsage> own, QuotaTree tree,
            Map<String, List<String>> children, Map<String, Entry> out) {
        ElasticQuotaSpec spec = directory.get(name);
        QuotaState state = QuotaDirectory.builtin(name) ? builtinState(spec, own) : tree.states().get(name);
        List<String> kids = children.getOrDefault(name, List.of());
        out.put(name, new Entry(spec, state, kids)); // the quota before its children
        for (String c : kids) {
            visit(c, directory, own, tree, children, out);
        }
    }

    /** A built-in's state: its request, capped at max towards the root; its runtime is its max. */
    private static QuotaState builtinState(ElasticQuotaSpec spec, Function<String, QuotaUsage> own) {
        ResourceAmounts r = own.apply(spec.name()).request();
        return new QuotaState(r, r, r.cappedAt(spec.max()), spec.min(), spec.max());
    }

    /** The root's entry: its children's limited requests, the tree's total over the names of every quota's max. */
    private static Entry root(QuotaDirectory directory, Map<String, Entry> out, ResourceAmounts clusterTotal,
            Function<String, QuotaUsage> own, List<String> top, Set<String> rootKeys) {
        ResourceAmounts topRequest = ResourceAmounts.NONE;
        for (String name : top) {
            if (!QuotaDirectory.builtin(name)) {
                topRequest = topRequest.plus(out.get(name).state().limitedRequest());
            }
        }
        String quotaNamespace = directory.get(QuotaDirectory.DEFAULT).namespace();
        ElasticQuotaSpec rootSpec = new ElasticQuotaSpec(QuotaTree.ROOT, quotaNamespace, "", true, false, ResourceAmounts.NONE,
                ResourceAmounts.NONE, ResourceAmounts.NONE, List.of(), null);
        return new Entry(rootSpec, new QuotaState(topRequest, topRequest, topRequest, ResourceAmounts.NONE,
                sharedTotal(clusterTotal, own).masked(rootKeys)), top);
    }

    /** {@code quota}'s usage, its subtree's included, as {@code own} has each quota's own pods now (placements since this tree). */
    public QuotaUsage usage(String quota, Function<String, QuotaUsage> own) {
        Entry e = entries.get(quota);
        if (e == null) {
            return own.apply(quota);
        }
        QuotaUsage u = own.apply(quota);
        for (String c : e.children()) {
            u = u.plus(usage(c, own).masked(e.spec().max().names())); // Koordinator passes a child's used up so
        }
        return u;
    }

    /** The quota's entry; null when it is not in the tree. */
    public Entry get(String name) {
        return entries.get(name);
    }

    /** Every quota in tree order: the root, then depth first, children by name. */
    public List<Entry> entries() {
        List<Entry> out = new ArrayList<>(order.size());
        order.forEach(name -> out.add(entries.get(name)));
        return out;
    }

    /** Quotas left out of the tree (a missing parent, a cycle, a name taken), with why. */
    public Map<String, String> problems() {
        return problems;
    }
}
