package io.colocation.quota;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Koordinator's ElasticQuota runtime as a pure function of one tree (docs/koordinator-compatibility.md §15.3): requests
 * propagated bottom-up (a child asks its parent for its request capped at its max), then each parent's runtime split
 * top-down among its children by {@link SharedSplit}, per resource of the parent's max, the root's runtime being the
 * tree's total. With min scaling (Koordinator's {@code enableMinQuotaScale}, on by default) a parent whose runtime is
 * below its children's mins scales them in proportion, so the children's runtimes never exceed the parent's.
 *
 * <p>A quota whose parent is not in the tree, or that is part of a cycle, is left out and named in {@link #problems()}
 * (the validating webhook refuses both; the runtime must not hang on one that got in).
 */
public final class QuotaTree {
    /** Koordinator's root: the parent of a quota whose parent label is empty. */
    public static final String ROOT = "koordinator-root-quota";

    private final Map<String, QuotaState> states = new TreeMap<>();
    private final Map<String, String> problems = new TreeMap<>();

    private QuotaTree() {
    }

    /**
     * @param quotas   every quota of the tree but the root
     * @param total    the root's runtime: the tree's total (the cluster's allocatable, less what quotas outside the
     *                 sharing hold)
     * @param scaleMin Koordinator's {@code enableMinQuotaScale}
     */
    public static QuotaTree compute(List<Quota> quotas, ResourceAmounts total, boolean scaleMin) {
        QuotaTree tree = new QuotaTree();
        Map<String, Quota> byName = new LinkedHashMap<>();
        for (Quota q : quotas) {
            byName.put(q.name(), q);
        }
        Map<String, List<Quota>> children = new TreeMap<>();
        for (Quota q : byName.values()) {
            String why = tree.unreachable(q, byName);
            if (why != null) {
                tree.problems.put(q.name(), why);
            } else {
                children.computeIfAbsent(q.parent(), p -> new ArrayList<>()).add(q);
            }
        }
        Map<String, ResourceAmounts> childRequest = new TreeMap<>();
        Map<String, ResourceAmounts> request = new TreeMap<>();
        Map<String, ResourceAmounts> limited = new TreeMap<>();
        for (Quota q : children.getOrDefault(ROOT, List.of())) {
            propagate(q, children, childRequest, request, limited);
        }
        Set<String> rootKeys = new HashSet<>();
        byName.values().forEach(q -> rootKeys.addAll(q.max().names()));
        tree.share(ROOT, total.masked(rootKeys), rootKeys, children, limited, scaleMin, childRequest, request);
        return tree;
    }

    /** Why {@code q} does not hang off the root (a missing parent, a cycle); null when it does. */
    private String unreachable(Quota q, Map<String, Quota> byName) {
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

    /** Bottom-up: what {@code q} and its subtree ask (Koordinator's recursiveUpdateGroupTreeWithDeltaRequest). */
    private static ResourceAmounts propagate(Quota q, Map<String, List<Quota>> children, Map<String, ResourceAmounts> childRequest,
            Map<String, ResourceAmounts> request, Map<String, ResourceAmounts> limited) {
        ResourceAmounts asked = q.ownRequest();
        for (Quota c : children.getOrDefault(q.name(), List.of())) {
            asked = asked.plus(propagate(c, children, childRequest, request, limited));
        }
        childRequest.put(q.name(), asked);
        ResourceAmounts req = asked;
        if (!q.allowLent()) {
            for (String k : q.min().names()) {
                req = req.with(k, Math.max(req.get(k), q.min().get(k)));
            }
        }
        request.put(q.name(), req);
        ResourceAmounts capped = req.cappedAt(q.max());
        limited.put(q.name(), capped);
        return capped;
    }

    /** Top-down: {@code parent}'s runtime split among its children, each child's then among its own. */
    private void share(String parent, ResourceAmounts runtime, Set<String> keys, Map<String, List<Quota>> children,
            Map<String, ResourceAmounts> limited, boolean scaleMin, Map<String, ResourceAmounts> childRequest,
            Map<String, ResourceAmounts> request) {
        List<Quota> kids = children.getOrDefault(parent, List.of());
        if (kids.isEmpty()) {
            return;
        }
        Map<String, ResourceAmounts> scaled = scaledMins(runtime, kids, scaleMin);
        Map<String, TreeMap<String, Long>> runtimes = new LinkedHashMap<>();
        kids.forEach(k -> runtimes.put(k.name(), new TreeMap<>()));
        for (String key : keys) {
            List<SharedSplit.Child> split = new ArrayList<>();
            for (Quota k : kids) {
                split.add(new SharedSplit.Child(k.name(), limited.get(k.name()).get(key), scaled.get(k.name()).get(key),
                        k.sharedWeight().get(key), k.allowLent()));
            }
            long[] shares = SharedSplit.split(runtime.get(key), split);
            for (int i = 0; i < kids.size(); i++) {
                runtimes.get(kids.get(i).name()).put(key, shares[i]);
            }
        }
        for (Quota k : kids) {
            ResourceAmounts own = ResourceAmounts.of(runtimes.get(k.name())).masked(k.max().names());
            states.put(k.name(), new QuotaState(childRequest.get(k.name()), request.get(k.name()), limited.get(k.name()),
                    scaled.get(k.name()), own));
            share(k.name(), own, k.max().names(), children, limited, scaleMin, childRequest, request);
        }
    }

    /**
     * Koordinator's getScaledMinQuota with every child scaling: on each resource of the parent's runtime that is below
     * the children's Σ min, a child's min becomes {@code int64(float64(runtime) × min / float64(Σ min))}.
     */
    private static Map<String, ResourceAmounts> scaledMins(ResourceAmounts runtime, List<Quota> kids, boolean scaleMin) {
        Map<String, ResourceAmounts> out = new LinkedHashMap<>();
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

    /** Every quota reached from the root, by name. */
    public Map<String, QuotaState> states() {
        return Collections.unmodifiableMap(states);
    }

    /** Quotas left out of the tree, with why. */
    public Map<String, String> problems() {
        return Collections.unmodifiableMap(problems);
    }
}
