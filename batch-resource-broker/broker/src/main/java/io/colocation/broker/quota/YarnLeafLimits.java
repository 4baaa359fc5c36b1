package io.colocation.broker.quota;

import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.broker.kube.PublicationThreshold;
import io.colocation.quota.QuotaForest;
import io.colocation.quota.QuotaRuntime;
import io.colocation.quota.YarnLeaf;
import io.colocation.quota.YarnQueueLimit;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The CapacityScheduler limits of every tree's YARN queues (docs/quota.md), and when to publish them: computed with the
 * one engine from both sides' demand ({@link TreeDemand}); written when there are none under this leader's epoch, when
 * the set of queues changes, at once when a figure shrinks (YARN must not hold what the tree gave elsewhere) and when
 * one grows by more than {@code resourceDiffThreshold} (Koordinator's rule, as for a node's Batch and a tree's total).
 *
 * @param queues   the limit of each queue, by path
 * @param runtimes each tree's runtime, by tree-id
 */
public record YarnLeafLimits(Map<String, YarnQueueLimits.Limit> queues, Map<String, QuotaRuntime> runtimes) {

    /** @param queueDemand a queue's demand by path, null when YARN reports no such queue */
    public static YarnLeafLimits of(QuotaForest forest, TreeDemand demand, Function<String, YarnLeaf.Demand> queueDemand) {
        Map<String, YarnQueueLimits.Limit> queues = new TreeMap<>();
        Map<String, QuotaRuntime> runtimes = new TreeMap<>();
        for (QuotaForest.Tree t : forest.trees().values()) {
            if (t.members().stream().noneMatch(q -> q.yarnQueue() != null)) {
                continue;
            }
            QuotaRuntime runtime = demand.runtime(t, queueDemand);
            runtimes.put(t.treeId(), runtime);
            for (YarnQueueLimit l : YarnQueueLimit.of(runtime)) {
                queues.put(l.queue(), new YarnQueueLimits.Limit(vcores(l.capacity()), l.capacity().memoryMB(),
                        vcores(l.maximumCapacity()), l.maximumCapacity().memoryMB()));
            }
        }
        return new YarnLeafLimits(queues, runtimes);
    }

    private static int vcores(YarnLeaf.Amount a) {
        return (int) Math.min(Integer.MAX_VALUE, a.vcores());
    }

    /**
     * Why to publish {@code desired} over {@code published} (null: none yet), or null to leave it.
     *
     * @param revokeAfterMillis the revoke delay the document is to carry
     * @param epoch this leader's epoch: limits written under another are written again, for the plugins fence by epoch
     */
    public static String reason(YarnQueueLimits published, Map<String, YarnQueueLimits.Limit> desired, long revokeAfterMillis, long epoch,
            double diffThreshold) {
        if (published == null) {
            return desired.isEmpty() ? null : "no queue limits published yet";
        }
        if (!published.queues().keySet().equals(desired.keySet())) {
            return "the trees' YARN queues are now " + desired.keySet();
        }
        if (published.epoch() != epoch) {
            return "written under epoch " + published.epoch() + ", this leader's is " + epoch;
        }
        if (published.revokeAfterMillis() != revokeAfterMillis) {
            return "the revoke delay is now " + revokeAfterMillis + " ms";
        }
        String grew = null;
        for (Map.Entry<String, YarnQueueLimits.Limit> e : desired.entrySet()) {
            YarnQueueLimits.Limit was = published.queues().get(e.getKey());
            YarnQueueLimits.Limit now = e.getValue();
            long[][] figures = {
                    {was.maximumVcores(), now.maximumVcores()}, {was.maximumMemoryMB(), now.maximumMemoryMB()},
                    {was.capacityVcores(), now.capacityVcores()}, {was.capacityMemoryMB(), now.capacityMemoryMB()}};
            for (long[] f : figures) {
                if (f[1] < f[0]) {
                    return e.getKey() + " shrinks: " + was + " -> " + now;
                }
                if (grew == null && PublicationThreshold.moved(f[0], f[1], diffThreshold)) {
                    grew = e.getKey() + " grew by more than resourceDiffThreshold " + diffThreshold + ": " + was + " -> " + now;
                }
            }
        }
        return grew;
    }
}
