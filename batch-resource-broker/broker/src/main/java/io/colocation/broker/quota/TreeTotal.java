package io.colocation.broker.quota;

import io.colocation.api.ResourceNames;
import io.colocation.broker.kube.PublicationThreshold;
import io.colocation.model.Resources;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.ResourceAmounts;
import java.util.List;

/**
 * A tree over Batch's total, as the broker keeps it in its root's {@code total-resource} annotation (docs/quota.md):
 * the Batch origin of every colocated node, before the split between Kubernetes and YARN, on the Batch resources the
 * root's max names. Written when absent or unreadable, when a resource appears or goes, when it shrinks (at once: the
 * tree's runtimes must not promise what the nodes no longer have) and when it grows by more than
 * {@code resourceDiffThreshold} of the written value (Koordinator's rule, as for a node's Batch).
 */
public final class TreeTotal {
    private static final List<String> BATCH = List.of(ResourceNames.BATCH_CPU, ResourceNames.BATCH_MEMORY);

    private TreeTotal() {
    }

    /** Whether the broker keeps this quota's total: a tree root (is-root, a tree-id) whose max names a Batch resource. */
    public static boolean kept(ElasticQuotaSpec q) {
        return q.isRoot() && !q.treeId().isEmpty() && BATCH.stream().anyMatch(q.max()::has);
    }

    /** The root's total from the nodes' Batch origin summed. */
    public static ResourceAmounts of(ElasticQuotaSpec root, Resources origin) {
        ResourceAmounts out = ResourceAmounts.NONE;
        if (root.max().has(ResourceNames.BATCH_CPU)) {
            out = out.with(ResourceNames.BATCH_CPU, Math.max(origin.cpuMilli(), 0));
        }
        if (root.max().has(ResourceNames.BATCH_MEMORY)) {
            out = out.with(ResourceNames.BATCH_MEMORY, Math.max(origin.memoryBytes(), 0));
        }
        return out;
    }

    /** Why to write {@code desired} over {@code written} (null: absent or unreadable), or null to leave it. */
    public static String reason(ResourceAmounts written, ResourceAmounts desired, double diffThreshold) {
        if (written == null) {
            return "no readable total yet";
        }
        if (!written.names().equals(desired.names())) {
            return "the Batch resources of the root's max changed";
        }
        for (String k : desired.names()) {
            long was = written.get(k);
            long now = desired.get(k);
            if (now < was) {
                return k + " shrank";
            }
            if (PublicationThreshold.moved(was, now, diffThreshold)) {
                return k + " grew by more than resourceDiffThreshold " + diffThreshold;
            }
        }
        return null;
    }
}
