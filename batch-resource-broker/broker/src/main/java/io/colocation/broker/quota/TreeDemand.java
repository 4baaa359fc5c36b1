package io.colocation.broker.quota;

import io.colocation.api.InvalidInputException;
import io.colocation.model.pod.PodPhases;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaBook;
import io.colocation.quota.QuotaDirectory;
import io.colocation.quota.QuotaForest;
import io.colocation.quota.QuotaPod;
import io.colocation.quota.QuotaRuntime;
import io.colocation.quota.QuotaUsage;
import io.colocation.quota.ResourceAmounts;
import io.colocation.quota.YarnLeaf;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The demand of the trees over Batch from both sides, as {@code quota explain} and the broker's leader read it: the
 * live pods resolved over every quota (as Koordinator resolves a pod before it picks the quota's tree), and each YARN
 * leaf's queue (allocated plus pending). A pure function of the documents given.
 *
 * @param book        the pods by quota
 * @param yarnLeafPods pods that resolve to a YARN leaf (they count in no quota: a YARN leaf's demand is its queue's), by key
 * @param refused     pods whose requests do not read, by key, with why
 */
public record TreeDemand(QuotaBook book, List<String> yarnLeafPods, Map<String, String> refused) {

    public static TreeDemand of(List<ElasticQuotaSpec> specs, Collection<Pod> pods) {
        QuotaBook book = new QuotaBook(QuotaDirectory.of(specs, QuotaDirectory.DEFAULT_NAMESPACE, ResourceAmounts.NONE, ResourceAmounts.NONE));
        List<String> yarnLeafPods = new ArrayList<>();
        Map<String, String> refused = new TreeMap<>();
        for (Pod pod : pods) {
            if (PodPhases.ended(pod)) {
                continue;
            }
            String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
            try {
                String quota = book.put(QuotaPod.of(key, pod, PodPhases.bound(pod)));
                ElasticQuotaSpec spec = book.directory().get(quota);
                if (spec != null && spec.yarnQueue() != null) {
                    yarnLeafPods.add(key + " (" + quota + ")");
                }
            } catch (InvalidInputException e) {
                refused.put(key, e.getMessage());
            }
        }
        return new TreeDemand(book, List.copyOf(yarnLeafPods), refused);
    }

    /** The tree's runtime, its quotas' own usage from the pods and from {@code queues} (a queue's demand by path, null: none). */
    public QuotaRuntime runtime(QuotaForest.Tree tree, Function<String, YarnLeaf.Demand> queues) {
        return tree.runtime(ownUsage(tree, queues), true);
    }

    public Function<String, QuotaUsage> ownUsage(QuotaForest.Tree tree, Function<String, YarnLeaf.Demand> queues) {
        return tree.ownUsage(book::usage, queues);
    }
}
