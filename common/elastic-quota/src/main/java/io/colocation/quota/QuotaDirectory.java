package io.colocation.quota;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The quotas of one tree by name, with Koordinator's built-ins and its pod → quota resolution
 * (docs/koordinator-compatibility.md §15.1): the pod's {@code quota.scheduling.koordinator.sh/name} label, else the
 * quota named like its namespace in that namespace, else the first quota (by name) whose {@code namespaces} annotation
 * lists it, else {@value #DEFAULT}; a label naming no quota also falls back to {@value #DEFAULT}.
 *
 * <p>{@value #SYSTEM} and {@value #DEFAULT} are always there: as given, or with the max of the scheduler's arguments
 * when no object exists. An object named {@link QuotaTree#ROOT} is the root, not a member. Quota names are unique
 * across namespaces, as in Koordinator; a second quota of a name is left out and named in {@link #problems()}.
 */
public final class QuotaDirectory {
    public static final String SYSTEM = "koordinator-system-quota";
    public static final String DEFAULT = "koordinator-default-quota";
    /** Where the built-ins live unless the scheduler's arguments say otherwise (Koordinator's {@code quotaGroupNamespace}). */
    public static final String DEFAULT_NAMESPACE = "koordinator-system";
    /** The pod label naming its quota. */
    public static final String LABEL_QUOTA_NAME = ElasticQuotaSpec.PREFIX + "name";
    /** The pod label that, {@code "false"}, makes a pod non-preemptible. */
    public static final String LABEL_PREEMPTIBLE = ElasticQuotaSpec.PREFIX + "preemptible";

    private final Map<String, ElasticQuotaSpec> byName = new HashMap<>();
    private final Map<String, String> byListedNamespace = new LinkedHashMap<>();
    private final Map<String, String> problems = new TreeMap<>();

    private QuotaDirectory() {
    }

    /**
     * @param quotas          the ElasticQuota objects, in any order
     * @param quotaNamespace  where the built-ins live (Koordinator's {@code quotaGroupNamespace})
     * @param systemMax       the system quota's max when no object gives it ({@code systemQuotaGroupMax})
     * @param defaultMax      the default quota's max when no object gives it ({@code defaultQuotaGroupMax})
     */
    public static QuotaDirectory of(Collection<ElasticQuotaSpec> quotas, String quotaNamespace, ResourceAmounts systemMax,
            ResourceAmounts defaultMax) {
        QuotaDirectory d = new QuotaDirectory();
        List<ElasticQuotaSpec> second = new ArrayList<>();
        List<ElasticQuotaSpec> listing = new ArrayList<>();
        for (ElasticQuotaSpec q : quotas) {
            if (q.name().equals(QuotaTree.ROOT)) {
                continue;
            }
            ElasticQuotaSpec known = d.byName.putIfAbsent(q.name(), q);
            if (known != null) { // of two of a name, the one in the namespace first by name stays
                boolean earlier = q.namespace().compareTo(known.namespace()) < 0;
                if (earlier) {
                    d.byName.put(q.name(), q);
                }
                second.add(earlier ? known : q);
            }
        }
        for (ElasticQuotaSpec q : second) {
            d.problems.put(q.namespace() + "/" + q.name(), "a quota of this name is in namespace " + d.byName.get(q.name()).namespace()
                    + " already; quota names are unique across namespaces");
        }
        d.byName.computeIfAbsent(SYSTEM, n -> builtin(n, quotaNamespace, systemMax));
        d.byName.computeIfAbsent(DEFAULT, n -> builtin(n, quotaNamespace, defaultMax));
        for (ElasticQuotaSpec q : d.byName.values()) {
            if (!q.namespaces().isEmpty()) {
                listing.add(q);
            }
        }
        listing.sort(Comparator.comparing(ElasticQuotaSpec::name)); // a namespace listed twice goes to the first by name
        for (ElasticQuotaSpec q : listing) {
            for (String ns : q.namespaces()) {
                d.byListedNamespace.putIfAbsent(ns, q.name());
            }
        }
        return d;
    }

    private static ElasticQuotaSpec builtin(String name, String namespace, ResourceAmounts max) {
        return new ElasticQuotaSpec(name, namespace, QuotaTree.ROOT, false, true, ResourceAmounts.NONE, max, max, List.of(), null);
    }

    /** Whether the quota is one of Koordinator's built-ins, outside the sharing: its runtime is its max. */
    public static boolean builtin(String name) {
        return name.equals(SYSTEM) || name.equals(DEFAULT) || name.equals(QuotaTree.ROOT);
    }

    /** The quota a pod of {@code namespace} with {@code labels} belongs to. */
    public String quotaOf(String namespace, Map<String, String> labels) {
        String named = labels == null ? null : labels.get(LABEL_QUOTA_NAME);
        if (named != null && !named.isEmpty()) {
            return byName.containsKey(named) && !named.equals(QuotaTree.ROOT) ? named : DEFAULT;
        }
        ElasticQuotaSpec same = byName.get(namespace);
        if (same != null && same.namespace().equals(namespace)) {
            return same.name();
        }
        return byListedNamespace.getOrDefault(namespace, DEFAULT);
    }

    /** Whether a pod with these labels is non-preemptible ({@code preemptible: "false"}). */
    public static boolean nonPreemptible(Map<String, String> labels) {
        return labels != null && "false".equals(labels.get(LABEL_PREEMPTIBLE));
    }

    public ElasticQuotaSpec get(String name) {
        return byName.get(name);
    }

    /** Every quota but the root, in no particular order. */
    public Collection<ElasticQuotaSpec> quotas() {
        return Collections.unmodifiableCollection(byName.values());
    }

    /**
     * Whether every pod resolves to the same quota here as in {@code other} and is charged the same: the same quotas by
     * name and namespace, listing the same namespaces, with max over the same resources (a change of min, max amounts,
     * weights, parents or lending only).
     */
    public boolean resolvesAs(QuotaDirectory other) {
        if (byName.size() != other.byName.size() || !byListedNamespace.equals(other.byListedNamespace)) {
            return false;
        }
        for (ElasticQuotaSpec q : byName.values()) {
            ElasticQuotaSpec o = other.byName.get(q.name());
            if (o == null) {
                return false;
            }
            if (q != o && (!q.namespace().equals(o.namespace()) || !q.max().names().equals(o.max().names()))) {
                return false;
            }
        }
        return true;
    }

    /** Quotas left out (a second of one name), by {@code namespace/name}, with why. */
    public Map<String, String> problems() {
        return Collections.unmodifiableMap(problems);
    }
}
