package io.colocation.quota;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every live pod's charge on its quota, kept as pods come, change and go, and the usage of each quota (its own pods;
 * a parent's own pods are counted on it alone, the tree adds its children). A new directory re-resolves every pod, so
 * a quota created after its pods takes them from the default quota, as Koordinator's migration does. Not thread-safe:
 * its owner guards it.
 */
public final class QuotaBook {
    private record Charge(QuotaPod pod, String quota, QuotaUsage usage) {
    }

    private QuotaDirectory directory;
    private final Map<String, Charge> charges = new HashMap<>();
    private final Map<String, QuotaUsage> usage = new HashMap<>();
    private final Set<String> changedRequests = new HashSet<>();

    public QuotaBook(QuotaDirectory directory) {
        this.directory = directory;
    }

    public QuotaDirectory directory() {
        return directory;
    }

    /** Charges the pod (replacing what it was charged before); returns the quota it belongs to. */
    public String put(QuotaPod pod) {
        Charge was = charges.remove(pod.key());
        if (was != null) {
            take(was);
        }
        String quota = directory.quotaOf(pod.namespace(), pod.labels());
        Charge now = new Charge(pod, quota, QuotaUsage.of(pod, directory.get(quota).max()));
        charges.put(pod.key(), now);
        usage.merge(quota, now.usage(), QuotaUsage::plus);
        if (was == null || !was.quota().equals(quota) || !was.usage().request().equals(now.usage().request())
                || !was.usage().nonPreemptibleRequest().equals(now.usage().nonPreemptibleRequest())) {
            changedRequests.add(quota);
            if (was != null) {
                changedRequests.add(was.quota());
            }
        }
        return quota;
    }

    /**
     * The pod charged before is now on a node ({@code onNode}) or no longer: its requests become used or stop being,
     * nothing else of its charge changes (a reservation and its undoing, the scheduling cycle's hot path). False when
     * the pod is not charged.
     */
    public boolean assign(String key, boolean onNode) {
        Charge c = charges.get(key);
        if (c == null) {
            return false;
        }
        if (c.pod().assigned() != onNode) {
            ResourceAmounts r = c.usage().request();
            QuotaUsage held = new QuotaUsage(ResourceAmounts.NONE, r, ResourceAmounts.NONE, c.pod().nonPreemptible() ? r : ResourceAmounts.NONE);
            QuotaUsage now = onNode ? c.usage().plus(held) : c.usage().minus(held);
            charges.put(key, new Charge(c.pod().assigned(onNode), c.quota(), now));
            QuotaUsage quotaNow = usage.get(c.quota());
            usage.put(c.quota(), onNode ? quotaNow.plus(held) : quotaNow.minus(held));
        }
        return true;
    }

    /** The pod is gone (deleted or ended): nothing of it is charged. */
    public void remove(String key) {
        Charge was = charges.remove(key);
        if (was != null) {
            take(was);
            changedRequests.add(was.quota());
        }
    }

    /** The pod as last charged; null when it is not. */
    public QuotaPod pod(String key) {
        Charge c = charges.get(key);
        return c == null ? null : c.pod();
    }

    private void take(Charge c) {
        QuotaUsage left = usage.get(c.quota()).minus(c.usage());
        usage.put(c.quota(), left);
    }

    /** New quotas: every pod is resolved and charged again, unless each would resolve and be charged as before. */
    public void directory(QuotaDirectory next) {
        boolean same = next.resolvesAs(directory);
        directory = next;
        if (same) {
            return;
        }
        changedRequests.addAll(usage.keySet());
        usage.clear();
        for (Map.Entry<String, Charge> e : charges.entrySet()) {
            QuotaPod pod = e.getValue().pod();
            String quota = next.quotaOf(pod.namespace(), pod.labels());
            Charge c = new Charge(pod, quota, QuotaUsage.of(pod, next.get(quota).max()));
            e.setValue(c);
            usage.merge(quota, c.usage(), QuotaUsage::plus);
        }
        changedRequests.addAll(usage.keySet());
    }

    /** The quota's own pods on a node that may be preempted (the candidates of revocation). */
    public List<QuotaPod> assignedPreemptible(String quota) {
        List<QuotaPod> out = new ArrayList<>();
        for (Charge c : charges.values()) {
            if (c.quota().equals(quota) && c.pod().assigned() && !c.pod().nonPreemptible()) {
                out.add(c.pod());
            }
        }
        return out;
    }

    /** The usage of one quota's own pods. */
    public QuotaUsage usage(String quota) {
        return usage.getOrDefault(quota, QuotaUsage.NONE);
    }

    /**
     * The quotas whose own pods' requests changed since the last call (a pod came, went, moved quota or changed its
     * requests; not one only placed), which this call forgets.
     */
    public Set<String> takeChangedRequests() {
        if (changedRequests.isEmpty()) {
            return Set.of(); // the scheduling cycle's case: asked every cycle, mostly nothing
        }
        Set<String> out = Set.copyOf(changedRequests);
        changedRequests.clear();
        return out;
    }
}
