package io.colocation.quota;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the CapacityScheduler holds for a YARN queue of a tree over Batch, in absolute resources
 * (docs/koordinator-compatibility.md §15.6): a leaf's {@code capacity} is its min and its {@code maximum-capacity} its
 * runtime, never below the min (YARN refuses a capacity above the maximum, and the min is the tenant's guarantee: a
 * lender gets it back at once, as Koordinator admits its pods, while borrowers are revoked); a queue above leaves (not
 * {@code root}) holds the sum of its leaves'. An amount that would be all zero is 1 MiB: YARN reads
 * {@code [memory=0,vcores=0]} as no setting (a maximum of none is no limit at all).
 *
 * @param quota the leaf's ElasticQuota, null for a queue above leaves
 */
public record YarnQueueLimit(String queue, String quota, YarnLeaf.Amount capacity, YarnLeaf.Amount maximumCapacity) {
    public static final String PREFIX = "yarn.scheduler.capacity.";

    /** The two CapacityScheduler properties, {@code yarn.scheduler.capacity.<queue>.capacity} and {@code .maximum-capacity}. */
    public Map<String, String> properties() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(PREFIX + queue + ".capacity", capacity.absolute());
        out.put(PREFIX + queue + ".maximum-capacity", maximumCapacity.absolute());
        return out;
    }

    /** The limits of every YARN leaf of {@code runtime} and of the queues above them, by queue path. */
    public static List<YarnQueueLimit> of(QuotaRuntime runtime) {
        Map<String, YarnQueueLimit> byQueue = new TreeMap<>();
        for (QuotaRuntime.Entry e : runtime.entries()) {
            String queue = e.spec().yarnQueue();
            if (queue == null || e.state() == null) {
                continue;
            }
            ResourceAmounts max = e.spec().max();
            ResourceAmounts held = e.state().runtime();
            YarnLeaf.Amount capacity = YarnLeaf.amount(e.spec().min(), max).readable();
            YarnQueueLimit leaf = new YarnQueueLimit(queue, e.spec().name(), capacity, YarnLeaf.amount(held, max).atLeast(capacity));
            byQueue.put(queue, leaf);
            for (int dot = queue.lastIndexOf('.'); dot > "root".length(); dot = queue.lastIndexOf('.', dot - 1)) {
                String above = queue.substring(0, dot);
                YarnQueueLimit was = byQueue.get(above);
                byQueue.put(above, was == null ? new YarnQueueLimit(above, null, leaf.capacity, leaf.maximumCapacity)
                        : new YarnQueueLimit(above, null, was.capacity.plus(leaf.capacity), was.maximumCapacity.plus(leaf.maximumCapacity)));
            }
        }
        return new ArrayList<>(byQueue.values());
    }
}
