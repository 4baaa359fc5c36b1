package io.colocation.broker.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.model.document.KubeDocuments;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaForest;
import io.colocation.quota.ResourceAmounts;
import io.colocation.quota.YarnLeaf;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TreeRuntimesTest {
    private static final YarnQueueLimits.Limit A = new YarnQueueLimits.Limit(2, 2048, 10, 10240);

    private static YarnQueueLimits published(long epoch, Map<String, YarnQueueLimits.Limit> queues) {
        return new YarnQueueLimits(epoch, 3, queues, 120_000, 0);
    }

    @Test
    void publishedWhenNoneWhenTheQueuesOrTheEpochChangeOnAShrinkAndOnAGrowthPastTheThreshold() {
        assertEquals("no queue limits published yet", TreeRuntimes.reason(null, Map.of("root.a", A), 120_000, 1, 0.1));
        assertNull(TreeRuntimes.reason(null, Map.of(), 120_000, 1, 0.1), "no tree with YARN leaves, nothing to write");
        assertEquals("the trees' YARN queues are now [root.a, root.b]", TreeRuntimes.reason(published(1, Map.of("root.a", A)),
                new TreeMap<>(Map.of("root.a", A, "root.b", A)), 120_000, 1, 0.1));
        assertEquals("written under epoch 1, this leader's is 2", TreeRuntimes.reason(published(1, Map.of("root.a", A)), Map.of("root.a", A), 120_000, 2, 0.1));
        assertNull(TreeRuntimes.reason(published(1, Map.of("root.a", A)), Map.of("root.a", A), 120_000, 1, 0.1));
        assertEquals("the revoke delay is now -1 ms", TreeRuntimes.reason(published(1, Map.of("root.a", A)), Map.of("root.a", A), -1, 1, 0.1));
        YarnQueueLimits.Limit slightlyMore = new YarnQueueLimits.Limit(2, 2048, 11, 11264);
        assertNull(TreeRuntimes.reason(published(1, Map.of("root.a", A)), Map.of("root.a", slightlyMore), 120_000, 1, 0.1), "10 % is not more than 10 %");
        YarnQueueLimits.Limit more = new YarnQueueLimits.Limit(2, 2048, 12, 10240);
        assertEquals("root.a grew by more than resourceDiffThreshold 0.1: " + A + " -> " + more,
                TreeRuntimes.reason(published(1, Map.of("root.a", A)), Map.of("root.a", more), 120_000, 1, 0.1));
        YarnQueueLimits.Limit less = new YarnQueueLimits.Limit(2, 2048, 10, 10239);
        assertEquals("root.a shrinks: " + A + " -> " + less, TreeRuntimes.reason(published(1, Map.of("root.a", A)), Map.of("root.a", less), 120_000, 1, 0.1),
                "at once: YARN must not hold what the tree gave elsewhere");
    }

    @Test
    void aKubernetesRuntimeShrinksAtOnceAndGrowsPastTheThreshold() {
        ResourceAmounts four = ResourceAmounts.of("kubernetes.io/batch-cpu", 4000L);
        assertEquals(new TreeRuntimes.Change(four, false, "no runtime written yet"), TreeRuntimes.kubernetesWhy(null, four, 0.1));
        assertEquals(new TreeRuntimes.Change(ResourceAmounts.of("kubernetes.io/batch-cpu", 3999L), true, "kubernetes.io/batch-cpu shrinks"),
                TreeRuntimes.kubernetesWhy(four, ResourceAmounts.of("kubernetes.io/batch-cpu", 3999L), 0.1));
        assertEquals(null, TreeRuntimes.kubernetesWhy(four, ResourceAmounts.of("kubernetes.io/batch-cpu", 4400L), 0.1));
        assertEquals(new TreeRuntimes.Change(ResourceAmounts.of("kubernetes.io/batch-cpu", 4401L), false,
                "kubernetes.io/batch-cpu grew by more than resourceDiffThreshold 0.1"),
                TreeRuntimes.kubernetesWhy(four, ResourceAmounts.of("kubernetes.io/batch-cpu", 4401L), 0.1));
        assertEquals(true, TreeRuntimes.kubernetesWhy(four, ResourceAmounts.NONE, 0.1).shrinks(), "a resource gone is a shrink");
    }

    @Test
    void theLimitsOfATreeFollowBothSidesDemand() throws Exception {
        List<ElasticQuotaSpec> quotas = new ArrayList<>();
        for (KubeDocuments.Sourced d : KubeDocuments.read("src/test/resources/quota/yarn-tree.yaml", null)) {
            quotas.add(ElasticQuotaSpec.read(d.object()));
        }
        TreeDemand nothing = TreeDemand.of(quotas, List.of());
        // team-a asks 10 vcores and 6 GiB; team-b's namespace has no pods: team-a may have the tree's 6 cores.
        TreeRuntimes limits = TreeRuntimes.of(QuotaForest.of(quotas), nothing,
                q -> q.equals("root.team-a") ? new YarnLeaf.Demand(new YarnLeaf.Amount(4, 4096), new YarnLeaf.Amount(6, 2048)) : null);
        assertEquals(Map.of("root.team-a", new YarnQueueLimits.Limit(2, 2048, 6, 6144)), limits.queues());
        assertEquals(List.of("batch"), List.copyOf(limits.runtimes().keySet()));
        // Every quota of the tree gets its runtime; team-b's namespace asks nothing, so its runtime is nothing.
        assertEquals(List.of("koordinator-system/batch-root", "team-a/team-a-yarn", "team-b/team-b-k8s"), List.copyOf(limits.quotas().keySet()));
        assertEquals(ResourceAmounts.of("kubernetes.io/batch-cpu", 6000L, "kubernetes.io/batch-memory", 6144L << 20),
                limits.quotas().get("team-a/team-a-yarn"));
        // No demand: the queue keeps its min, the tenant's guarantee.
        assertEquals(Map.of("root.team-a", new YarnQueueLimits.Limit(2, 2048, 2, 2048)),
                TreeRuntimes.of(QuotaForest.of(quotas), nothing, q -> null).queues());
    }
}
