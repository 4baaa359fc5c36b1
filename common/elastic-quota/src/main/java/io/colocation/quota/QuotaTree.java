package io.colocation.quota;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;

/**
 * Koordinator's ElasticQuota runtime as a pure function of one tree (docs/koordinator-compatibility.md §15.3): requests
 * propagated bottom-up (a child asks its parent for its request capped at its max), then each parent's runtime split
 * top-down among its children by {@link SharedSplit}, per resource of the parent's max, the root's runtime being the
 * tree's total. With min scaling (Koordinator's {@code enableMinQuotaScale}, on by default) a parent whose runtime is
 * below its children's mins scales them in proportion, so the children's runtimes never exceed the parent's.
 *
 * <p>Immutable. {@link #updated} gives the tree after some quotas or the total changed, recomputing only what they
 * affect: the changed quotas' requests up their paths while a limited request moves, then the splits of the parents
 * whose inputs moved, and below them only where a runtime moved. It equals {@link #compute} on the same quotas.
 *
 * <p>A quota whose parent is not in the tree, or that is part of a cycle, is left out and named in {@link #problems()}
 * (the validating webhook refuses both; the runtime must not hang on one that got in).
 */
public final class QuotaTree {
    /** Koordinator's root: the parent of a quota whose parent label is empty. */
    public static final String ROOT = "koordinator-root-quota";

    // The shape (shared by every tree updated from this one: an update that would change it computes anew).
    private final boolean scaleMin;
    private final Map<String, List<String>> children;
    private final Map<String, Integer> depth;
    private final Set<String> rootKeys;
    private final Map<String, String> problems;
    private final List<Quota> unreachable;
    // What each quota is and what was computed of it.
    private final Map<String, Quota> quotas;
    private final HashMap<String, QuotaState> states;
    private final ResourceAmounts rootRuntime;
    // The quotas whose state this tree holds anew, against the tree it was updated from (null: computed anew).
    private final Set<String> touched;

    private QuotaTree(boolean scaleMin, Map<String, List<String>> children, Map<String, Integer> depth, Set<String> rootKeys,
            Map<String, String> problems, List<Quota> unreachable, Map<String, Quota> quotas, HashMap<String, QuotaState> states,
            ResourceAmounts rootRuntime, Set<String> touched) {
        this.scaleMin = scaleMin;
        this.children = children;
        this.depth = depth;
        this.rootKeys = rootKeys;
        this.problems = problems;
        this.unreachable = unreachable;
        this.quotas = quotas;
        this.states = states;
        this.rootRuntime = rootRuntime;
        this.touched = touched;
    }

    /**
     * @param quotas   every quota of the tree but the root
     * @param total    the root's runtime: the tree's total (the cluster's allocatable, less what quotas outside the
     *                 sharing hold)
     * @param scaleMin Koordinator's {@code enableMinQuotaScale}
     */
    public static QuotaTree compute(Collection<Quota> quotas, ResourceAmounts total, boolean scaleMin) {
        Map<String, Quota> byName = new LinkedHashMap<>();
        for (Quota q : quotas) {
            byName.put(q.name(), q);
        }
        Map<String, String> problems = new TreeMap<>();
        List<Quota> unreachable = new ArrayList<>();
        Map<String, Quota> reached = new HashMap<>();
        Map<String, List<String>> children = new HashMap<>();
        for (Quota q : byName.values()) {
            String why = unreachable(q, byName);
            if (why != null) {
                problems.put(q.name(), why);
                unreachable.add(q);
            } else {
                reached.put(q.name(), q);
                children.computeIfAbsent(q.parent(), p -> new ArrayList<>()).add(q.name());
            }
        }
        children.values().forEach(Collections::sort);
        Map<String, Integer> depth = new HashMap<>();
        depth.put(ROOT, 0);
        Set<String> rootKeys = new HashSet<>();
        byName.values().forEach(q -> rootKeys.addAll(q.max().names()));
        HashMap<String, QuotaState> states = new HashMap<>();
        for (String top : children.getOrDefault(ROOT, List.of())) {
            propagate(top, 1, reached, children, depth, states);
        }
        QuotaTree tree = new QuotaTree(scaleMin, children, depth, Collections.unmodifiableSet(rootKeys),
                Collections.unmodifiableMap(problems), List.copyOf(unreachable), reached, states, total.masked(rootKeys), null);
        Set<String> parents = new HashSet<>(children.keySet());
        tree.resplit(parents);
        return tree;
    }

    /**
     * This tree with {@code changed} quotas (the same names, new min, max, weights, lending or own requests) and the total
     * now {@code total}. A quota that is new, gone from the tree, moved to another parent or whose max names other
     * resources changes the shape: the tree is then computed anew.
     */
    public QuotaTree updated(Collection<Quota> changed, ResourceAmounts total) {
        for (Quota q : changed) {
            Quota was = quotas.get(q.name());
            if (was == null || !was.parent().equals(q.parent()) || !was.max().names().equals(q.max().names())) {
                Map<String, Quota> all = new LinkedHashMap<>(quotas);
                unreachable.forEach(u -> all.put(u.name(), u));
                changed.forEach(c -> all.put(c.name(), c));
                return compute(all.values(), total, scaleMin);
            }
        }
        Map<String, Quota> nextQuotas = new HashMap<>(quotas);
        changed.forEach(q -> nextQuotas.put(q.name(), q));
        QuotaTree next = new QuotaTree(scaleMin, children, depth, rootKeys, problems, unreachable, nextQuotas, new HashMap<>(states),
                total.masked(rootKeys), new HashSet<>());
        Set<String> dirty = new HashSet<>();
        if (!next.rootRuntime.equals(rootRuntime)) {
            dirty.add(ROOT);
        }
        for (Quota q : changed) {
            dirty.add(q.name()); // its max may have moved: its children's split is redone
            for (String at = q.name(); !at.equals(ROOT); ) {
                QuotaState before = next.states.get(at);
                QuotaState now = next.requests(nextQuotas.get(at), before);
                next.put(at, now);
                String parent = nextQuotas.get(at).parent();
                dirty.add(parent);
                if (now.limitedRequest().equals(before.limitedRequest())) {
                    break; // what it asks of its parent did not move: nothing above it asks more or less
                }
                at = parent;
            }
        }
        next.resplit(dirty);
        return next;
    }

    /** Why {@code q} does not hang off the root (a missing parent, a cycle); null when it does. */
    private static String unreachable(Quota q, Map<String, Quota> byName) {
        Set<String> seen = new HashSet<>();
        for (Quota at = q; ; ) {
            if (!seen.add(at.name())) {
                return "its parent chain comes back to " + at.name() + " (a cycle)";
            }
            if (at.parent().equals(ROOT)) {
                return null;
            }
            Quota parent = byName.get(at.parent());
            if (parent == null) {
                return "its parent " + at.parent() + (at == q ? "" : " (of " + at.name() + ")") + " does not exist";
            }
            at = parent;
        }
    }

    /** Bottom-up from {@code name}: its and its subtree's requests, runtimes not yet split. */
    private static QuotaState propagate(String name, int level, Map<String, Quota> quotas, Map<String, List<String>> children,
            Map<String, Integer> depth, Map<String, QuotaState> states) {
        depth.put(name, level);
        ResourceAmounts asked = quotas.get(name).ownRequest();
        for (String c : children.getOrDefault(name, List.of())) {
            asked = asked.plus(propagate(c, level + 1, quotas, children, depth, states).limitedRequest());
        }
        QuotaState s = withRequest(quotas.get(name), asked, ResourceAmounts.NONE, ResourceAmounts.NONE);
        states.put(name, s);
        return s;
    }

    /** {@code q}'s requests again from its own and its children's (Koordinator's recursiveUpdateGroupTreeWithDeltaRequest). */
    private QuotaState requests(Quota q, QuotaState before) {
        ResourceAmounts asked = q.ownRequest();
        for (String c : children.getOrDefault(q.name(), List.of())) {
            asked = asked.plus(states.get(c).limitedRequest());
        }
        return withRequest(q, asked, before.autoScaleMin(), before.runtime());
    }

    /** A quota asking {@code childRequest}: raised to min where it does not lend, capped at max towards its parent. */
    private static QuotaState withRequest(Quota q, ResourceAmounts childRequest, ResourceAmounts autoScaleMin, ResourceAmounts runtime) {
        ResourceAmounts req = childRequest;
        if (!q.allowLent()) {
            for (String k : q.min().names()) {
                req = req.with(k, Math.max(req.get(k), q.min().get(k)));
            }
        }
        return new QuotaState(childRequest, req, req.cappedAt(q.max()), autoScaleMin, runtime);
    }

    /**
     * Top-down from the shallowest: each parent of {@code dirty} splits its runtime among its children again; a child
     * whose runtime moved splits its own again.
     */
    private void resplit(Set<String> dirty) {
        PriorityQueue<String> due = new PriorityQueue<>(Comparator.comparing((String p) -> depth.getOrDefault(p, 0))
                .thenComparing(Comparator.naturalOrder()));
        due.addAll(dirty);
        Set<String> done = new HashSet<>();
        while (!due.isEmpty()) {
            String parent = due.poll();
            if (!done.add(parent) || !children.containsKey(parent)) {
                continue;
            }
            for (String moved : split(parent)) {
                if (children.containsKey(moved) && !done.contains(moved)) {
                    due.add(moved);
                }
            }
        }
    }

    /** {@code parent}'s runtime split among its children; returns the children whose runtime moved. */
    private List<String> split(String parent) {
        ResourceAmounts runtime = parent.equals(ROOT) ? rootRuntime : states.get(parent).runtime();
        Set<String> keys = parent.equals(ROOT) ? rootKeys : quotas.get(parent).max().names();
        List<Quota> kids = new ArrayList<>();
        for (String k : children.get(parent)) {
            kids.add(quotas.get(k));
        }
        Map<String, ResourceAmounts> scaled = scaledMins(runtime, kids, scaleMin);
        Map<String, TreeMap<String, Long>> runtimes = new HashMap<>();
        kids.forEach(k -> runtimes.put(k.name(), new TreeMap<>()));
        for (String key : keys) {
            List<SharedSplit.Child> split = new ArrayList<>();
            for (Quota k : kids) {
                split.add(new SharedSplit.Child(k.name(), states.get(k.name()).limitedRequest().get(key), scaled.get(k.name()).get(key),
                        k.sharedWeight().get(key), k.allowLent()));
            }
            long[] shares = SharedSplit.split(runtime.get(key), split);
            for (int i = 0; i < kids.size(); i++) {
                runtimes.get(kids.get(i).name()).put(key, shares[i]);
            }
        }
        List<String> moved = new ArrayList<>();
        for (Quota k : kids) {
            QuotaState was = states.get(k.name());
            ResourceAmounts own = ResourceAmounts.of(runtimes.get(k.name())).masked(k.max().names());
            if (!own.equals(was.runtime())) {
                moved.add(k.name());
            }
            if (!own.equals(was.runtime()) || !scaled.get(k.name()).equals(was.autoScaleMin())) {
                put(k.name(), new QuotaState(was.childRequest(), was.request(), was.limitedRequest(), scaled.get(k.name()), own));
            }
        }
        return moved;
    }

    /**
     * Koordinator's getScaledMinQuota with every child scaling: on each resource of the parent's runtime that is below
     * the children's Σ min, a child's min becomes {@code int64(float64(runtime) × min / float64(Σ min))}.
     */
    private static Map<String, ResourceAmounts> scaledMins(ResourceAmounts runtime, List<Quota> kids, boolean scaleMin) {
        Map<String, ResourceAmounts> out = new HashMap<>();
        ResourceAmounts sum = ResourceAmounts.NONE;
        for (Quota k : kids) {
            out.put(k.name(), k.min());
            sum = sum.plus(k.min());
        }
        if (!scaleMin) {
            return out;
        }
        for (String key : runtime.names()) {
            long total = runtime.get(key);
            long mins = sum.get(key);
            if (total >= mins) {
                continue;
            }
            for (Quota k : kids) {
                long scaled = total <= 0 || mins <= 0 ? 0 : (long) ((double) total * (double) k.min().get(key) / (double) mins);
                out.put(k.name(), out.get(k.name()).with(key, scaled));
            }
        }
        return out;
    }

    private void put(String name, QuotaState state) {
        states.put(name, state);
        if (touched != null) {
            touched.add(name);
        }
    }

    /**
     * The quotas whose state may differ from the tree this one was {@linkplain #updated updated} from; null when it was
     * computed anew (any may).
     */
    Set<String> touched() {
        return touched == null ? null : Collections.unmodifiableSet(touched);
    }

    /** Koordinator's {@code enableMinQuotaScale}, as this tree was computed with. */
    boolean scaleMin() {
        return scaleMin;
    }

    /** Every quota reached from the root. */
    public Map<String, QuotaState> states() {
        return Collections.unmodifiableMap(states);
    }

    /** Quotas left out of the tree, with why. */
    public Map<String, String> problems() {
        return problems;
    }
}
