package io.colocation.broker.quota;

import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.api.yarn.YarnQueues;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.broker.yarn.NotLeaderException;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.kube.client.ApiErrors;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaForest;
import io.colocation.quota.QuotaRuntime;
import io.colocation.quota.QuotaStatus;
import io.colocation.quota.QuotaUnits;
import io.colocation.quota.ResourceAmounts;
import io.colocation.quota.YarnLeaf;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader keeps every tree over Batch's runtimes on both sides (docs/quota.md): every round, from the ElasticQuotas
 * just listed, the pods and the plugin's queue report (its demand held over {@link #DEMAND_WINDOW}), the trees'
 * runtimes with the one engine ({@link TreeRuntimes}); then, in this order, the Kubernetes quotas' shrinking runtime
 * annotations, the YARN leaves' CapacityScheduler limits (through the fenced channel the grants use), the growing
 * annotations once YARN holds the newest limits, and each quota's {@code request} and {@code status.used} (the scheduler
 * writes those of the quotas it computes). A tree with YARN leaves waits for the plugin's first queue report (a
 * leaf's demand would count 0).
 */
public final class TreeRuntimesKeeper {
    private static final Logger LOG = LoggerFactory.getLogger(TreeRuntimesKeeper.class);
    public static final Duration DEMAND_WINDOW = Duration.ofMinutes(1);

    private final KubernetesClient client;
    private final YarnSide side;
    private final Supplier<Collection<Pod>> pods;
    private final LeaderEpoch leadership;
    private final DoubleSupplier diffThreshold;
    private final long revokeAfterMillis;
    private final Clock clock;
    private final QueueDemandWindow demand = new QueueDemandWindow(DEMAND_WINDOW);
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);
    private String lastHeld;

    /**
     * @param side              the YARN cluster whose queues the trees' YARN leaves name (the broker's first), null without YARN
     * @param revokeAfterMillis how long a queue may hold more than its runtime before the plugin preempts it; -1: never
     */
    public TreeRuntimesKeeper(KubernetesClient client, YarnSide side, Supplier<Collection<Pod>> pods, LeaderEpoch leadership,
            DoubleSupplier diffThreshold, long revokeAfterMillis, Clock clock) {
        this.client = client;
        this.side = side;
        this.pods = pods;
        this.leadership = leadership;
        this.diffThreshold = diffThreshold;
        this.revokeAfterMillis = revokeAfterMillis;
        this.clock = clock;
    }

    /** One round over the quotas listed (null: none listed this round, nothing to do). */
    public void keep(List<TreeTotalKeeper.Listed> listed) {
        Optional<LeaderEpoch.Fence> fence = leadership.fence();
        if (listed == null || fence.isEmpty()) {
            return;
        }
        List<ElasticQuotaSpec> quotas = listed.stream().map(TreeTotalKeeper.Listed::spec).toList();
        QuotaForest forest = QuotaForest.of(quotas);
        if (forest.trees().isEmpty()) {
            return;
        }
        boolean yarnLeaves = forest.trees().values().stream().anyMatch(t -> t.members().stream().anyMatch(q -> q.yarnQueue() != null));
        Map<String, YarnLeaf.Demand> queues = Map.of();
        if (yarnLeaves) {
            Optional<YarnQueues> report = side == null ? Optional.empty() : side.queues();
            if (report.isEmpty()) {
                warnings.warn("report", side == null ? "the trees have YARN leaves and the broker serves no YARN cluster: they wait"
                        : "YARN cluster " + side.clusterId() + " has reported no queues yet (the colocation scheduler plugin writes "
                        + "them, with the CapacityScheduler): the trees with YARN leaves wait for it");
                return;
            }
            warnings.resolved("report");
            queues = demand.sample(clock.millis(), report.get().queues());
        }
        TreeDemand trees = TreeDemand.of(quotas, pods.get());
        trees.refused().forEach((pod, why) -> warnings.warn("pod " + pod, why + ": the pod counts in no quota"));
        TreeRuntimes runtimes = TreeRuntimes.of(forest, trees, queues::get);

        Map<String, ElasticQuotaSpec> byKey = new HashMap<>();
        Map<String, ResourceAmounts> written = new HashMap<>();
        for (TreeTotalKeeper.Listed l : listed) {
            byKey.put(TreeRuntimes.key(l.spec()), l.spec());
            written.put(TreeRuntimes.key(l.spec()), l.runtime());
        }
        List<String> grows = new ArrayList<>();
        boolean shrinksLanded = true;
        for (Map.Entry<String, ResourceAmounts> e : runtimes.quotas().entrySet()) {
            TreeRuntimes.Change change = TreeRuntimes.kubernetesWhy(written.get(e.getKey()), e.getValue(), diffThreshold.getAsDouble());
            if (change == null) {
                continue;
            }
            if (change.shrinks()) {
                shrinksLanded &= annotate(byKey.get(e.getKey()), change);
            } else {
                grows.add(e.getKey());
            }
        }
        YarnQueueLimits newest = yarnLeaves ? side.queueLimits().orElse(null) : null;
        if (yarnLeaves && shrinksLanded) {
            newest = publishYarn(runtimes, newest, fence.get().epoch());
        }
        if (!grows.isEmpty()) {
            String waitFor = yarnLeaves ? yarnBehind(newest) : null;
            String held = waitFor == null ? null : grows + ": " + waitFor;
            if (held != null && !held.equals(lastHeld)) {
                LOG.info("Kubernetes quotas of the trees over Batch grow once YARN holds its newest limits: {}", held);
            }
            lastHeld = held;
            if (waitFor == null) {
                for (String key : grows) {
                    annotate(byKey.get(key), TreeRuntimes.kubernetesWhy(written.get(key), runtimes.quotas().get(key), diffThreshold.getAsDouble()));
                }
            }
        }
        writeStatus(listed, forest, runtimes, trees, queues);
    }

    /**
     * What the scheduler writes on the quotas it computes, the broker writes on a tree's, which it computes: the
     * {@code request} annotation and {@code status.used} (a YARN leaf's what its queue holds), when they changed.
     */
    private void writeStatus(List<TreeTotalKeeper.Listed> listed, QuotaForest forest, TreeRuntimes runtimes, TreeDemand trees,
            Map<String, YarnLeaf.Demand> queues) {
        for (TreeTotalKeeper.Listed l : listed) {
            QuotaRuntime runtime = runtimes.runtimes().get(l.spec().treeId());
            QuotaRuntime.Entry e = runtime == null ? null : runtime.get(l.spec().name());
            if (e == null || !e.spec().equals(l.spec())) {
                continue;
            }
            ResourceAmounts used = runtime.usage(l.spec().name(), trees.ownUsage(forest.trees().get(l.spec().treeId()), queues::get)).used();
            String subject = TreeRuntimes.key(l.spec());
            try {
                if (l.request() == null || !l.request().withoutZeros().equals(e.state().request().withoutZeros())) {
                    TreeTotalKeeper.annotate(client, l.spec(), Map.of(QuotaStatus.REQUEST, QuotaStatus.json(e.state().request())));
                }
                if (l.used() == null || !l.used().withoutZeros().equals(used.withoutZeros())) {
                    Map<String, String> patch = new HashMap<>(QuotaUnits.write(used));
                    if (l.used() != null) {
                        l.used().names().forEach(k -> patch.putIfAbsent(k, null));
                    }
                    TreeTotalKeeper.writeUsed(client, l.spec(), patch);
                }
            } catch (KubernetesClientException ex) {
                warnings.warn(subject + " status", "cannot write the status of " + subject + ": " + ApiErrors.describe(ex));
            }
        }
    }

    /** Writes the quota's runtime annotation; whether it landed. */
    private boolean annotate(ElasticQuotaSpec quota, TreeRuntimes.Change change) {
        String subject = TreeRuntimes.key(quota);
        String runtime = QuotaStatus.json(change.runtime());
        try {
            TreeTotalKeeper.annotate(client, quota, Map.of(QuotaStatus.RUNTIME, runtime));
            warnings.resolved(subject);
            LOG.info("tree {}: {} runtime {} ({})", quota.treeId(), subject, runtime, change.why());
            return true;
        } catch (KubernetesClientException e) {
            warnings.warn(subject, "cannot write the runtime of " + subject + " in tree " + quota.treeId() + ": " + ApiErrors.describe(e));
            return false;
        }
    }

    /** Publishes the YARN leaves' limits when due; returns the newest published (the one written, else {@code published}). */
    private YarnQueueLimits publishYarn(TreeRuntimes runtimes, YarnQueueLimits published, long epoch) {
        String why = TreeRuntimes.reason(published, runtimes.queues(), revokeAfterMillis, epoch, diffThreshold.getAsDouble());
        if (why == null) {
            return published;
        }
        try {
            YarnQueueLimits written = side.publishQueueLimits(runtimes.queues(), revokeAfterMillis);
            warnings.resolved("publish");
            LOG.info("YARN queue limits version {} of cluster {}: {} ({})", written.version(), side.clusterId(), written.queues(), why);
            return written;
        } catch (NotLeaderException e) {
            LOG.info("queue limits not published: {}", e.getMessage());
        } catch (IOException e) {
            warnings.warn("publish", "cannot publish the YARN queue limits of the trees over Batch: " + e.getMessage());
        }
        return null; // whether it landed is not known: nothing grows this round
    }

    /**
     * Why YARN does not hold {@code published}, the newest limits published (the one this round wrote: the cache may not
     * have it yet), null when it does.
     */
    private String yarnBehind(YarnQueueLimits published) {
        if (published == null) {
            return "none published, or the last write's fate is not known";
        }
        YarnQueues report = side.queues().orElse(null);
        if (report == null || report.limitsEpoch() != published.epoch() || report.limitsVersion() < published.version()) {
            return "YARN holds version " + (report == null ? "none" : report.limitsEpoch() + "/" + report.limitsVersion()) + " of "
                    + published.epoch() + "/" + published.version();
        }
        return report.limitsProblem() == null ? null : "YARN says " + report.limitsProblem();
    }
}
