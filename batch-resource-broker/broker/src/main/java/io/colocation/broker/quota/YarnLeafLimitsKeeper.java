package io.colocation.broker.quota;

import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.api.yarn.YarnQueues;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.broker.yarn.NotLeaderException;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaForest;
import io.colocation.quota.YarnLeaf;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader makes each tree's YARN leaves YARN's own limits (docs/quota.md): every round, from the ElasticQuotas just
 * listed, the pods and the plugin's queue report (its demand held over {@link #DEMAND_WINDOW}), the trees' runtimes
 * with the one engine and the CapacityScheduler limits that follow ({@link YarnLeafLimits}), published to the plugin
 * through the fenced channel the grants use. Nothing is published before the plugin has reported its queues (a leaf's
 * demand would count 0 and close its queue).
 */
public final class YarnLeafLimitsKeeper {
    private static final Logger LOG = LoggerFactory.getLogger(YarnLeafLimitsKeeper.class);
    public static final Duration DEMAND_WINDOW = Duration.ofMinutes(1);

    private final YarnSide side;
    private final Supplier<Collection<Pod>> pods;
    private final LeaderEpoch leadership;
    private final DoubleSupplier diffThreshold;
    private final long revokeAfterMillis;
    private final Clock clock;
    private final QueueDemandWindow demand = new QueueDemandWindow(DEMAND_WINDOW);
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);

    /**
     * @param side              the YARN cluster whose queues the trees' YARN leaves name (the broker's first)
     * @param revokeAfterMillis how long a queue may hold more than its runtime before the plugin preempts it; -1: never
     */
    public YarnLeafLimitsKeeper(YarnSide side, Supplier<Collection<Pod>> pods, LeaderEpoch leadership, DoubleSupplier diffThreshold,
            long revokeAfterMillis, Clock clock) {
        this.side = side;
        this.revokeAfterMillis = revokeAfterMillis;
        this.pods = pods;
        this.leadership = leadership;
        this.diffThreshold = diffThreshold;
        this.clock = clock;
    }

    /** One round over the quotas listed (null: none listed this round, nothing to do). */
    public void keep(List<ElasticQuotaSpec> quotas) {
        Optional<LeaderEpoch.Fence> fence = leadership.fence();
        if (quotas == null || fence.isEmpty()) {
            return;
        }
        QuotaForest forest = QuotaForest.of(quotas);
        boolean yarnLeaves = forest.trees().values().stream().anyMatch(t -> t.members().stream().anyMatch(q -> q.yarnQueue() != null));
        if (!yarnLeaves) {
            return;
        }
        Optional<YarnQueues> report = side.queues();
        if (report.isEmpty()) {
            warnings.warn("report", "YARN cluster " + side.clusterId() + " has reported no queues yet (the colocation scheduler "
                    + "plugin writes them, with the CapacityScheduler): the trees' YARN leaves wait for it");
            return;
        }
        warnings.resolved("report");
        Map<String, YarnLeaf.Demand> queues = demand.sample(clock.millis(), report.get().queues());
        TreeDemand trees = TreeDemand.of(quotas, pods.get());
        trees.refused().forEach((pod, why) -> warnings.warn("pod " + pod, why + ": the pod counts in no quota"));
        YarnLeafLimits limits = YarnLeafLimits.of(forest, trees, queues::get);
        YarnQueueLimits published = side.queueLimits().orElse(null);
        String why = YarnLeafLimits.reason(published, limits.queues(), revokeAfterMillis, fence.get().epoch(), diffThreshold.getAsDouble());
        if (why == null) {
            return;
        }
        try {
            YarnQueueLimits written = side.publishQueueLimits(limits.queues(), revokeAfterMillis);
            warnings.resolved("publish");
            LOG.info("YARN queue limits version {} of cluster {}: {} ({})", written.version(), side.clusterId(), written.queues(), why);
        } catch (NotLeaderException e) {
            LOG.info("queue limits not published: {}", e.getMessage());
        } catch (IOException e) {
            warnings.warn("publish", "cannot publish the YARN queue limits of the trees over Batch: " + e.getMessage());
        }
    }
}
