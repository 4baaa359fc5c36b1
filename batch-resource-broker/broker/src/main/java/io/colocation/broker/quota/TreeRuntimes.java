package io.colocation.broker.quota;

import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.broker.kube.PublicationThreshold;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaDirectory;
import io.colocation.quota.QuotaForest;
import io.colocation.quota.QuotaRuntime;
import io.colocation.quota.ResourceAmounts;
import io.colocation.quota.YarnLeaf;
import io.colocation.quota.YarnQueueLimit;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Every tree over Batch's runtimes (docs/quota.md), computed with the one engine from both sides' demand
 * ({@link TreeDemand}), and what each side is to hold of them: each quota's {@code runtime} annotation, which the
 * scheduler admits a Kubernetes leaf's pods by, and the CapacityScheduler limits of the YARN leaves' queues. When to
 * write: when nothing is written (under this leader's epoch, for YARN), when the set changes, at once on a shrink (the
 * other side may grow only after it) and on a growth past {@code resourceDiffThreshold} (Koordinator's rule, as for a
 * node's Batch and a tree's total); and a growth on one side only once the other holds its shrinks: the Kubernetes
 * annotations are written before the YARN limits in a round, and Kubernetes leaves grow only while YARN holds the
 * newest limits published ({@link #kubernetesWhy}).
 *
 * @param queues   the limit of each YARN queue, by path
 * @param quotas   each tree quota's runtime, by {@code namespace/name}
 * @param runtimes each tree's runtime, by tree-id
 */
public record TreeRuntimes(Map<String, YarnQueueLimits.Limit> queues, Map<String, ResourceAmounts> quotas, Map<String, QuotaRuntime> runtimes) {

    /** @param queueDemand a queue's demand by path, null when YARN reports no such queue */
    public static TreeRuntimes of(QuotaForest forest, TreeDemand demand, Function<String, YarnLeaf.Demand> queueDemand) {
        Map<String, YarnQueueLimits.Limit> queues = new TreeMap<>();
        Map<String, ResourceAmounts> quotas = new TreeMap<>();
        Map<String, QuotaRuntime> runtimes = new TreeMap<>();
        for (QuotaForest.Tree t : forest.trees().values()) {
            QuotaRuntime runtime = demand.runtime(t, queueDemand);
            runtimes.put(t.treeId(), runtime);
            for (QuotaRuntime.Entry e : runtime.entries()) {
                if (!QuotaDirectory.builtin(e.spec().name()) && e.state() != null) {
                    quotas.put(key(e.spec()), e.state().runtime());
                }
            }
            for (YarnQueueLimit l : YarnQueueLimit.of(runtime)) {
                queues.put(l.queue(), new YarnQueueLimits.Limit(vcores(l.capacity()), l.capacity().memoryMB(),
                        vcores(l.maximumCapacity()), l.maximumCapacity().memoryMB()));
            }
        }
        return new TreeRuntimes(queues, quotas, runtimes);
    }

    public static String key(ElasticQuotaSpec q) {
        return q.namespace() + "/" + q.name();
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

    /** A change of a tree quota's runtime annotation: a shrink goes at once, a growth may wait for the other side. */
    public record Change(ResourceAmounts runtime, boolean shrinks, String why) {
    }

    /**
     * Why to write {@code desired} as a tree quota's runtime over {@code written} (null: absent or unreadable), or null to
     * leave it. A shrink (any resource lower, one gone) is a change that goes at once; a growth past {@code diffThreshold}, a
     * resource added or a first runtime grow.
     */
    public static Change kubernetesWhy(ResourceAmounts written, ResourceAmounts desired, double diffThreshold) {
        if (written == null) {
            return new Change(desired, false, "no runtime written yet");
        }
        for (String k : written.names()) {
            if (!desired.has(k) || desired.get(k) < written.get(k)) {
                return new Change(desired, true, k + " shrinks");
            }
        }
        for (String k : desired.names()) {
            if (!written.has(k)) {
                return new Change(desired, false, k + " added");
            }
            if (PublicationThreshold.moved(written.get(k), desired.get(k), diffThreshold)) {
                return new Change(desired, false, k + " grew by more than resourceDiffThreshold " + diffThreshold);
            }
        }
        return null;
    }
}
