package io.colocation.broker.reconcile;

import io.colocation.api.ResourceNames;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.arbitration.ArbitrationSettings;
import io.colocation.broker.arbitration.Decision;
import io.colocation.broker.arbitration.GrantArbiter;
import io.colocation.broker.arbitration.SideState;
import io.colocation.broker.calculation.NodeReclaim;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.config.ColocationStrategy;
import io.colocation.broker.kube.BatchPublication;
import io.colocation.broker.kube.ClusterInputs;
import io.colocation.broker.kube.ClusterView;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.kube.NodeInputs;
import io.colocation.broker.kube.NodeManagerIdentity;
import io.colocation.broker.kube.KubernetesSide;
import io.colocation.broker.kube.NodeCalculation;
import io.colocation.broker.kube.NodeCalculationMemo;
import io.colocation.api.log.DistinctWarnings;
import io.colocation.model.pod.PodRequests;
import io.colocation.broker.kube.PublicationThreshold;
import io.colocation.broker.ledger.Ledger;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.broker.ledger.NodeLedger.Publication;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.broker.yarn.Leadership;
import io.colocation.broker.yarn.NotLeaderException;
import io.colocation.broker.yarn.YarnSide;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker pass over every node: the calculation (origin Batch and Mid), the ledger (use on both
 * sides, pending demand), the arbitration ({@link GrantArbiter}) and the publication of each side's
 * grant, in parallel across nodes. Idempotent: a pass publishes only what differs from what the sides
 * hold, so running it again changes nothing. Only the leader publishes; a standby computes the same
 * ledger for its API. When this replica takes the lead it forgets what it believed was published,
 * re-reads the grants from the node statuses and from ZooKeeper, and re-stamps the YARN grants with its
 * epoch.
 */
public final class BrokerReconciler implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerReconciler.class);
    /** Set to {@code "true"} on a Node to drain its Batch: origin counts as 0, grants freeze at use. */
    public static final String ANNOTATION_DRAIN_BATCH = "colocation.io/drain-batch";
    static final long MIB = 1024L * 1024L;

    private final ClusterInputs view;
    private final KubernetesSide kubernetes;
    private final Map<String, YarnSide> yarnSides;
    private final Leadership leadership;
    private final ArbitrationSettings arbitration;
    private final boolean matchHostNames;
    private final Clock clock;
    private final Ledger ledger;
    private final ExecutorService publishers;
    /** What this leader last wrote to each node's status (the informer may not show it yet). */
    private final Map<String, Written> kubernetesWritten = new ConcurrentHashMap<>();
    private final Map<String, Resources> yarnPublished = new ConcurrentHashMap<>();
    private final Map<String, Publication> lastKubernetes = new ConcurrentHashMap<>();
    private final Map<String, Publication> lastYarn = new ConcurrentHashMap<>();
    /** Nodes whose inputs cannot be read: since when, and why (the grace before Batch is removed runs from then). */
    private final Map<String, Fault> faults = new ConcurrentHashMap<>();
    private final DistinctWarnings nodeWarnings = new DistinctWarnings(LOG);
    private final NodeCalculationMemo calculations = new NodeCalculationMemo();
    private final DistinctWarnings demandWarnings = new DistinctWarnings(LOG);
    private volatile long resumedEpoch = -1;
    private final Duration fullPassEvery;
    private final java.util.concurrent.atomic.AtomicBoolean fullPassDue = new java.util.concurrent.atomic.AtomicBoolean(true);
    private Instant lastFullPass;
    private boolean lastLeading;
    private boolean lastApiServerUp;
    /** Nodes whose write failed in the last pass: decided again in the next one. */
    private final Set<String> retry = ConcurrentHashMap.newKeySet();
    private volatile String resumeProblem;
    private final Stats stats = new Stats();

    /** Counters since start, for the metrics. */
    public static final class Stats {
        public final AtomicLong passes = new AtomicLong();
        /** Passes that decided every node (the rest decided only the nodes whose inputs changed). */
        public final AtomicLong fullPasses = new AtomicLong();
        public final AtomicLong kubernetesWrites = new AtomicLong();
        public final AtomicLong yarnWrites = new AtomicLong();
        public final AtomicLong publishErrors = new AtomicLong();
        /** Node-passes in which the grants together exceeded origin (the shared policy's overcommit). */
        public final AtomicLong overcommits = new AtomicLong();
        /** Node-passes in which use exceeded origin (grants frozen, excess to take back). */
        public final AtomicLong excesses = new AtomicLong();
        public volatile long lastPassMillis;
        public volatile long lastFullPassMillis;
        public volatile Instant lastPassAt;
    }

    /** A node input that cannot be read, first seen at {@code since}. */
    private record Fault(String cause, Instant since) {
    }

    /** Batch and Mid as written (null: removed) and when. */
    private record Written(Resources batch, Resources mid, Instant at) {
    }

    /** What one pass did. */
    public record PassReport(boolean leading, int nodes, int kubernetesWrites, int yarnWrites, int errors, long millis) {
    }

    public BrokerReconciler(ClusterInputs view, KubernetesSide kubernetes, Map<String, YarnSide> yarnSides,
            Leadership leadership, ArbitrationSettings arbitration, boolean matchHostNames, int publishThreads,
            Ledger ledger, Clock clock, Duration fullPassEvery) {
        this.fullPassEvery = fullPassEvery;
        this.view = view;
        this.kubernetes = kubernetes;
        this.yarnSides = Map.copyOf(yarnSides);
        this.leadership = leadership;
        this.arbitration = arbitration;
        this.matchHostNames = matchHostNames;
        this.ledger = ledger;
        this.clock = clock;
        this.publishers = Executors.newFixedThreadPool(publishThreads, r -> {
            Thread t = new Thread(r, "broker-publish");
            t.setDaemon(true);
            return t;
        });
    }

    public Stats stats() {
        return stats;
    }

    /** Nodes whose inputs cannot be read now (frozen, or Batch removed after the grace), with why. */
    public Map<String, String> nodeFaults() {
        Map<String, String> out = new java.util.TreeMap<>();
        faults.forEach((node, f) -> out.put(node, f.cause()));
        return out;
    }

    /** Pending pods whose batch request cannot be read, with why (not counted in Kubernetes' demand). */
    public Map<String, String> invalidPendingPods() {
        return demandWarnings.current();
    }

    /** Why this replica leads but cannot publish, null when it publishes (or does not lead). */
    public String publishingProblem() {
        Optional<LeaderEpoch.Fence> fence = leadership.fence();
        if (fence.isPresent() && fence.get().epoch() != resumedEpoch) {
            return "leads with epoch " + fence.get().epoch() + " but has not resumed the persisted YARN grants yet"
                    + (resumeProblem == null ? "" : ": " + resumeProblem);
        }
        return null;
    }

    /** Forget what was published so the next pass compares with the sides again and rewrites everything. */
    public void forgetPublications() {
        kubernetesWritten.clear();
        yarnPublished.clear();
        fullPassDue.set(true);
    }

    public PassReport reconcileAll() {
        long started = System.nanoTime();
        Instant now = clock.instant();
        Optional<LeaderEpoch.Fence> fence = leadership.fence();
        boolean leading = fence.isPresent();
        boolean full = fullPassDue.getAndSet(false) || lastFullPass == null
                || !now.isBefore(lastFullPass.plus(fullPassEvery)) || leading != lastLeading;
        if (leading && fence.get().epoch() != resumedEpoch) {
            leading = resume(fence.get().epoch());
            full = true;
        }
        lastLeading = leading;
        ClusterInputs.Changes changes = view.takeChanges();
        ColocationConfig config = view.colocationConfig();
        Resources kubernetesDemand = kubernetesDemand();
        Map<String, Collection<String>> known = new HashMap<>();
        if (matchHostNames) {
            yarnSides.forEach((id, side) -> known.put(id, side.knownNodes()));
        }
        boolean apiServerUp = view.watching();
        boolean configUsable = view.configUsable();
        full |= changes.everything() || apiServerUp != lastApiServerUp || !configUsable;
        lastApiServerUp = apiServerUp;
        List<Node> all = view.nodes();
        List<Node> nodes = full ? all : changedNodes(all, changes.nodes());
        if (full) {
            lastFullPass = now;
        }
        retry.clear();
        List<NodeWork> work = new ArrayList<>(nodes.size());
        for (Node node : nodes) {
            if (!configUsable) {
                work.add(frozen(node, view.configError(), false, leading, now)); // reported once by the view, not per node
                continue;
            }
            try {
                work.add(decide(node, config, kubernetesDemand, known, apiServerUp, leading, now));
            } catch (RuntimeException e) {
                // An input shape no validation foresaw: this node alone is frozen, the pass goes on.
                LOG.debug("node {}: unexpected failure of its decision", node.getMetadata().getName(), e);
                work.add(frozen(node, "unexpected error while deciding: " + e, leading, now));
            }
        }
        int kWrites = 0;
        int yWrites = 0;
        int errors = 0;
        List<Future<NodeLedger>> done = new ArrayList<>(work.size());
        for (NodeWork w : work) {
            boolean publish = leading;
            done.add(publishers.submit(() -> publish(w, publish, now)));
        }
        for (int i = 0; i < done.size(); i++) {
            NodeLedger entry;
            try {
                entry = done.get(i).get();
            } catch (ExecutionException e) {
                LOG.debug("node {}: unexpected failure of its publication", work.get(i).node, e.getCause());
                entry = frozenLedger(frozen(work.get(i).object, "unexpected error while publishing: " + e.getCause(), leading, now), now);
                errors++;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            ledger.put(entry);
            Publication k = entry.lastKubernetesPublication();
            Publication y = entry.lastYarnPublication();
            if (k != null && k.at().equals(now)) {
                if (k.error() == null) {
                    kWrites++;
                } else {
                    errors++;
                    retry.add(entry.node());
                }
            }
            if (y != null && y.at().equals(now)) {
                if (y.error() == null) {
                    yWrites++;
                } else {
                    errors++;
                    retry.add(entry.node());
                }
            }
            if (entry.overcommit().cpuMilli() > 0 || entry.overcommit().memoryBytes() > 0) {
                stats.overcommits.incrementAndGet();
            }
            if (entry.excess().cpuMilli() > 0 || entry.excess().memoryBytes() > 0) {
                stats.excesses.incrementAndGet();
            }
        }
        if (full) {
            forgetGone(all);
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        stats.passes.incrementAndGet();
        if (full) {
            stats.fullPasses.incrementAndGet();
            stats.lastFullPassMillis = millis;
        }
        stats.kubernetesWrites.addAndGet(kWrites);
        stats.yarnWrites.addAndGet(yWrites);
        stats.publishErrors.addAndGet(errors);
        stats.lastPassMillis = millis;
        stats.lastPassAt = now;
        PassReport report = new PassReport(leading, nodes.size(), kWrites, yWrites, errors, millis);
        if (kWrites + yWrites + errors > 0) {
            LOG.info("pass: {} of {} nodes decided, {} Kubernetes and {} YARN writes, {} errors, {} ms{}", nodes.size(), all.size(),
                    kWrites, yWrites, errors, millis, leading ? "" : " (standby)");
        }
        return report;
    }

    /** Forgets what it kept of nodes that are gone (on full passes, which see every node). */
    private void forgetGone(List<Node> all) {
        Set<String> names = new HashSet<>();
        for (Node node : all) {
            names.add(node.getMetadata().getName());
        }
        ledger.retain(names);
        faults.keySet().retainAll(names);
        calculations.retain(names);
        nodeWarnings.retain(names);
        kubernetesWritten.keySet().retainAll(names);
        yarnPublished.keySet().retainAll(names);
        lastKubernetes.keySet().retainAll(names);
        lastYarn.keySet().retainAll(names);
    }

    /**
     * The nodes an incremental pass decides: those whose Node, pods or NodeMetric changed, those whose YARN
     * side moved since their ledger (use, applied capacity, grant, reachability), those without a ledger yet
     * and those whose last write failed. Everything else keeps its ledger until the next full pass.
     */
    private List<Node> changedNodes(List<Node> all, Set<String> changed) {
        List<Node> out = new ArrayList<>();
        for (Node node : all) {
            String name = node.getMetadata().getName();
            if (changed.contains(name) || retry.contains(name) || yarnMoved(name)) {
                out.add(node);
            }
        }
        return out;
    }

    private boolean yarnMoved(String node) {
        NodeLedger l = ledger.get(node).orElse(null);
        if (l == null) {
            return true;
        }
        if (l.yarn() == null) {
            return false;
        }
        YarnSide side = yarnSides.get(l.yarn().clusterId());
        if (side == null) {
            return false;
        }
        String nodeId = l.yarn().nodeId();
        Resources used = side.used(nodeId).map(BrokerReconciler::fromYarn).orElse(Resources.ZERO);
        Resources applied = side.applied(nodeId).map(BrokerReconciler::fromYarn).orElse(null);
        Long version = side.grant(nodeId).map(YarnGrant::version).orElse(null);
        return !used.equals(l.yarnUsed()) || !java.util.Objects.equals(applied, l.yarnApplied())
                || side.reachable(nodeId) != l.yarn().reachable() || !java.util.Objects.equals(version, l.yarn().grantVersion());
    }

    /** Takes the lead: re-stamps YARN grants with the new epoch; publication state is re-read from the sides. */
    private boolean resume(long epoch) {
        forgetPublications();
        for (YarnSide side : yarnSides.values()) {
            try {
                side.resume();
            } catch (NotLeaderException e) {
                LOG.warn("lost the lead while resuming: {}", e.getMessage());
                resumeProblem = e.getMessage();
                return false;
            } catch (IOException e) {
                String why = "YARN cluster " + side.clusterId() + ": cannot resume its grants under epoch " + epoch + ": " + e.getMessage();
                if (!why.equals(resumeProblem)) {
                    LOG.error("{}; will retry every pass", why);
                }
                resumeProblem = why;
                return false;
            }
        }
        resumedEpoch = epoch;
        resumeProblem = null;
        LOG.info("leading with epoch {}: resumed the persisted grants of {} YARN cluster(s)", epoch, yarnSides.size());
        return true;
    }

    /** Pending demand of Kubernetes: batch requests of pods not bound yet. */
    private Resources kubernetesDemand() {
        Resources sum = Resources.ZERO;
        for (Pod pod : view.unboundPods()) {
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            if (phase == null || "Pending".equals(phase)) {
                try {
                    sum = sum.plus(PodRequests.batch(pod, podKey(pod) + ": "));
                    demandWarnings.resolved(podKey(pod));
                } catch (InvalidInputException e) {
                    demandWarnings.warn(podKey(pod), "pending pod not counted in Kubernetes' demand: " + e.getMessage());
                }
            }
        }
        return sum;
    }

    private static String podKey(Pod pod) {
        return "Pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    /**
     * Everything decided for a node, before publication. {@code frozen} (with no decision) when the node's
     * grants stay as they are this pass; {@code degradedReason} when its Batch is not from fresh, valid inputs.
     */
    private record NodeWork(String node, Node object, String frozen, String degradedReason, ColocationStrategy strategy, NodeReclaim reclaim, Resources origin,
            boolean drained, Resources capacity, Resources nodeUsage, Resources kubernetesUsed, Resources yarnUsed,
            NodeManagerIdentity.NodeManager nm, YarnSide side, boolean yarnReachable, Resources yarnApplied,
            Decision decision, Resources currentBatch, Resources currentMid, List<String> explain) {
    }

    private NodeWork decide(Node node, ColocationConfig config, Resources kubernetesDemand,
            Map<String, Collection<String>> known, boolean apiServerUp, boolean leading, Instant now) {
        String name = node.getMetadata().getName();
        List<String> explain = new ArrayList<>();
        List<Pod> pods = view.podsOn(name);
        Optional<ClusterView.ParsedMetric> parsed = view.nodeMetric(name);
        NodeCalculation.Metric metric = metricOf(name, parsed);
        NodeCalculationMemo.Facts facts = calculations.calculate(config, node, pods, metric,
                parsed.map(ClusterView.ParsedMetric::resourceVersion).orElse(null), now);
        NodeCalculation.Outcome outcome = facts.outcome();
        explain.addAll(outcome.explain());
        if (view.configError() != null) {
            explain.add("the latest slo-controller-config was refused, the previous one is used: " + view.configError());
        }
        NodeReclaim reclaim = outcome.reclaim();
        String degradedReason = null;
        if (outcome.invalidInput() != null) {
            Fault fault = faults.compute(name, (k, old) -> old != null && old.cause().equals(outcome.invalidInput())
                    ? old : new Fault(outcome.invalidInput(), now));
            reportFault(name, "BatchInputInvalid", outcome.invalidInput(), leading);
            Instant removeAt = fault.since().plusSeconds(60L * outcome.strategy().degradeTimeMinutes());
            if (now.isBefore(removeAt)) {
                // reported above, once per cause; the fault is recorded
                return frozen(node, outcome.invalidInput() + "; grants frozen at their last values until it is fixed or until "
                        + removeAt + " (degradeTimeMinutes after it appeared), then Batch is removed", false, leading, now);
            }
            degradedReason = "input invalid since " + fault.since() + ": " + outcome.invalidInput() + "; Batch removed";
            explain.add("cannot calculate: " + outcome.invalidInput() + "; invalid for more than degradeTimeMinutes: Batch and Mid"
                    + " removed until it is fixed");
            reclaim = new NodeReclaim(name, Map.of(), Resources.ZERO, true, List.of());
        } else {
            if (faults.remove(name) != null) {
                explain.add("the input that froze this node is fixed");
            }
            nodeWarnings.resolved(name);
            if (reclaim.degraded()) {
                degradedReason = metric.unusable() != null ? metric.unusable() : "NodeMetric stale";
            }
        }
        Resources capacity = outcome.capacity();
        Resources nodeUsage = outcome.nodeUsage();
        boolean drained = "true".equalsIgnoreCase(annotation(node, ANNOTATION_DRAIN_BATCH));
        Resources origin = reclaim.originBatch();
        if (drained) {
            explain.add("drained (annotation " + ANNOTATION_DRAIN_BATCH + "=true): origin counts as 0, no side gets new room");
            origin = Resources.ZERO;
        }

        Resources kubernetesUsed = facts.batchUsed();
        explain.addAll(facts.notes());
        Written written = leading ? kubernetesWritten.get(name) : null;
        Resources currentBatch = written != null ? written.batch() : facts.publishedBatch();
        Resources currentMid = written != null ? written.mid() : facts.publishedMid();
        Resources kPublished = currentBatch == null ? Resources.ZERO : currentBatch;
        SideState k = new SideState(kubernetesUsed, kubernetesDemand, kPublished, kPublished, apiServerUp);

        NodeManagerIdentity.Resolution nm = NodeManagerIdentity.resolve(node, pods, known, matchHostNames);
        if (nm.problem() != null) {
            explain.add("YARN: " + nm.problem());
        }
        YarnSide side = nm.nodeManager() == null ? null : yarnSides.get(nm.nodeManager().clusterId());
        if (nm.nodeManager() != null && side == null) {
            explain.add("YARN: " + nm.nodeManager().source() + " names YARN cluster " + nm.nodeManager().clusterId()
                    + ", which this broker is not configured for (yarn.clusters); no YARN grant");
        }
        SideState y;
        Resources yarnUsed = Resources.ZERO;
        Resources yarnApplied = null;
        boolean yarnReachable = true;
        if (side == null) {
            y = new SideState(Resources.ZERO, Resources.ZERO, Resources.ZERO, Resources.ZERO, true);
        } else {
            String nodeId = nm.nodeManager().nodeId();
            yarnUsed = side.used(nodeId).map(BrokerReconciler::fromYarn).orElse(Resources.ZERO);
            yarnApplied = side.applied(nodeId).map(BrokerReconciler::fromYarn).orElse(null);
            yarnReachable = side.reachable(nodeId);
            Resources granted = leading ? yarnPublished.get(name) : null;
            if (granted == null) {
                granted = side.grant(nodeId).map(BrokerReconciler::fromGrant).orElse(null);
                if (leading && granted != null) {
                    yarnPublished.putIfAbsent(name, granted);
                }
            }
            // Never granted: YARN still runs on the NodeManager's own totals, so Kubernetes must not count on
            // any of origin until YARN acknowledges its first grant.
            Resources yPublished = granted != null ? granted : origin.max(yarnUsed);
            if (granted == null) {
                explain.add("YARN: no grant yet for " + nodeId + "; Kubernetes waits for YARN to acknowledge its first grant");
            }
            y = new SideState(yarnUsed, fromYarn(side.demand()), yPublished, yarnApplied, yarnReachable);
            explain.add("YARN: NodeManager " + nodeId + " of cluster " + side.clusterId() + " (from " + nm.nodeManager().source() + ")"
                    + (yarnReachable ? "" : "; not reachable (no fresh report): its grant is frozen and Kubernetes does not grow into it"));
        }
        if (!apiServerUp) {
            explain.add("Kubernetes: informers are not watching: its grant is frozen and YARN does not grow into it");
        }
        Decision decision = side == null ? GrantArbiter.kubernetesOnly(origin, k) : GrantArbiter.decide(arbitration, origin, k, y);
        explain.add(decision.explanation());
        return new NodeWork(name, node, null, degradedReason, outcome.strategy(), reclaim, origin, drained, capacity, nodeUsage, kubernetesUsed, yarnUsed,
                nm.nodeManager(), side, yarnReachable, yarnApplied, decision, currentBatch, currentMid, explain);
    }

    /** The node's NodeMetric as the view parsed it. */
    private static NodeCalculation.Metric metricOf(String name, Optional<ClusterView.ParsedMetric> parsed) {
        if (parsed.isEmpty()) {
            return NodeCalculation.Metric.unusable("no NodeMetric " + name);
        }
        if (parsed.get().error() != null) {
            return NodeCalculation.Metric.unusable("NodeMetric " + name + " is unusable (" + parsed.get().error() + ")");
        }
        return NodeCalculation.Metric.of(parsed.get().state());
    }

    /** WARN once per node and cause, and (leading) a Warning Event on the node. */
    private void reportFault(String node, String reason, String cause, boolean leading) {
        if (nodeWarnings.warn(node, cause) && leading) {
            kubernetes.warn(node, reason, cause);
        }
    }

    /** A node whose grants stay as published this pass. */
    private NodeWork frozen(Node node, String cause, boolean leading, Instant now) {
        return frozen(node, cause, true, leading, now);
    }

    private NodeWork frozen(Node node, String cause, boolean report, boolean leading, Instant now) {
        String name = node.getMetadata().getName();
        if (report) {
            faults.putIfAbsent(name, new Fault(cause, now));
            reportFault(name, "BatchFrozen", cause, leading);
        }
        Written written = leading ? kubernetesWritten.get(name) : null;
        List<String> unreadable = new ArrayList<>();
        Resources currentBatch = written != null ? written.batch()
                : NodeInputs.published(node, ResourceNames.BATCH_CPU, ResourceNames.BATCH_MEMORY, unreadable);
        Resources currentMid = written != null ? written.mid()
                : NodeInputs.published(node, ResourceNames.MID_CPU, ResourceNames.MID_MEMORY, unreadable);
        unreadable.forEach(note -> LOG.warn("node {}: {}", name, note));
        List<String> explain = List.of("frozen: " + cause);
        return new NodeWork(name, node, cause, "frozen: " + cause, null, null, Resources.ZERO, false, Resources.ZERO, null,
                Resources.ZERO, Resources.ZERO, null, null, true, null, null, currentBatch, currentMid, explain);
    }

    /** The ledger of a frozen node: the grants in force, nothing written. */
    private NodeLedger frozenLedger(NodeWork w, Instant now) {
        Resources kGrant = orDefault(w.currentBatch, Resources.ZERO);
        Resources yGrant = orDefault(yarnPublished.get(w.node), Resources.ZERO);
        return new NodeLedger(w.node, arbitration.policy().name().toLowerCase(java.util.Locale.ROOT),
                w.capacity, null, Resources.ZERO, Resources.ZERO, Resources.ZERO, Resources.ZERO, kGrant, yGrant, kGrant, yGrant,
                null, Resources.ZERO, Resources.ZERO, w.currentMid, true, w.degradedReason, false, null,
                lastKubernetes.get(w.node), lastYarn.get(w.node), now, w.explain);
    }

    private NodeLedger publish(NodeWork w, boolean leading, Instant now) {
        if (w.frozen != null) {
            return frozenLedger(w, now);
        }
        Decision d = w.decision;
        boolean batchPresent = w.reclaim.allocatable().containsKey(ResourceNames.BATCH_CPU);
        Resources desiredBatch = batchPresent ? d.kubernetesPublish() : null;
        Resources desiredMid = w.reclaim.allocatable().containsKey(ResourceNames.MID_CPU)
                ? new Resources(w.reclaim.allocatable().get(ResourceNames.MID_CPU), w.reclaim.allocatable().get(ResourceNames.MID_MEMORY))
                : null;
        Publication kPub = lastKubernetes.get(w.node);
        if (leading) {
            String reason = PublicationThreshold.reason(w.currentBatch, desiredBatch, w.currentMid, desiredMid,
                    writtenAt(w.node), orDefault(w.strategy.resourceDiffThreshold(), 0.1),
                    orDefault(w.strategy.updateTimeThresholdSeconds(), 300L), now);
            if (reason != null) {
                kPub = writeKubernetes(w, new BatchPublication(desiredBatch, desiredMid, w.origin, w.yarnUsed), reason, now);
            }
        }
        Publication yPub = lastYarn.get(w.node);
        Long grantEpoch = null;
        Long grantVersion = null;
        boolean acknowledged = false;
        if (w.side != null) {
            String nodeId = w.nm.nodeId();
            int vcores = (int) Math.min(Integer.MAX_VALUE, Math.max(d.yarnPublish().cpuMilli(), 0) / 1000);
            long memoryMB = Math.max(d.yarnPublish().memoryBytes(), 0) / MIB;
            Resources wanted = fromYarn(new YarnSide.Usage(vcores, memoryMB));
            Resources current = yarnPublished.get(w.node);
            if (leading && w.yarnReachable && !wanted.equals(current)) {
                yPub = writeYarn(w, vcores, memoryMB, wanted, now);
            }
            Optional<YarnGrant> grant = w.side.grant(nodeId);
            grantEpoch = grant.map(YarnGrant::epoch).orElse(null);
            grantVersion = grant.map(YarnGrant::version).orElse(null);
            acknowledged = w.yarnApplied != null && w.yarnApplied.equals(yGrantOf(w));
        }
        Written written = kubernetesWritten.get(w.node);
        Resources kGrant = leading && written != null ? orDefault(written.batch(), Resources.ZERO) : orDefault(w.currentBatch, Resources.ZERO);
        Resources yGrant = w.side == null ? Resources.ZERO : yGrantOf(w);
        return new NodeLedger(w.node, arbitration.policy().name().toLowerCase(java.util.Locale.ROOT),
                w.capacity, w.nodeUsage, w.origin, w.kubernetesUsed, w.yarnUsed,
                w.origin.minus(w.kubernetesUsed).minus(w.yarnUsed), d.kubernetesTarget(), d.yarnTarget(), kGrant, yGrant,
                w.yarnApplied, d.excess(), d.overcommit(), desiredMid, w.reclaim.degraded(), w.degradedReason, w.drained,
                w.nm == null ? null : new NodeLedger.YarnNode(w.nm.clusterId(), w.nm.nodeId(), w.nm.source(), w.yarnReachable,
                        grantEpoch, grantVersion, acknowledged),
                kPub, yPub, now, List.copyOf(w.explain));
    }

    private Publication writeKubernetes(NodeWork w, BatchPublication p, String reason, Instant now) {
        // The API server cannot check the epoch: make sure this replica still leads right before each write.
        if (leadership.fence().map(LeaderEpoch.Fence::epoch).orElse(-1L) != resumedEpoch) {
            return lastKubernetes.get(w.node);
        }
        try {
            kubernetes.publish(w.node, w.object, p);
            kubernetesWritten.put(w.node, new Written(p.batch(), p.mid(), now));
            LOG.info("node {}: Kubernetes batch {} ({}), origin {}, used k8s {} / yarn {}", w.node, describe(p.batch()), reason,
                    describe(w.origin), describe(w.kubernetesUsed), describe(w.yarnUsed));
            Publication pub = new Publication(now, p.batch(), reason, null);
            lastKubernetes.put(w.node, pub);
            return pub;
        } catch (IOException | RuntimeException e) {
            LOG.warn("node {}: Kubernetes publication failed: {}", w.node, e.getMessage());
            Publication pub = new Publication(now, p.batch(), reason, e.getMessage());
            lastKubernetes.put(w.node, pub);
            return pub;
        }
    }

    private Publication writeYarn(NodeWork w, int vcores, long memoryMB, Resources wanted, Instant now) {
        Resources before = yarnPublished.get(w.node);
        String reason = before == null || wanted.cpuMilli() < before.cpuMilli() || wanted.memoryBytes() < before.memoryBytes()
                ? "shrink or first grant" : "grow";
        try {
            YarnGrant g = w.side.publish(w.nm.nodeId(), vcores, memoryMB);
            yarnPublished.put(w.node, wanted);
            LOG.info("node {}: YARN {} grant {} vcores / {} MiB (epoch {}, version {}; {})", w.node, w.nm.nodeId(), vcores,
                    memoryMB, g.epoch(), g.version(), reason);
            Publication pub = new Publication(now, wanted, reason, null);
            lastYarn.put(w.node, pub);
            return pub;
        } catch (NotLeaderException | IOException | RuntimeException e) {
            LOG.warn("node {}: YARN publication failed: {}", w.node, e.getMessage());
            Publication pub = new Publication(now, wanted, reason, e.getMessage());
            lastYarn.put(w.node, pub);
            return pub;
        }
    }

    private Instant writtenAt(String node) {
        Written w = kubernetesWritten.get(node);
        return w == null ? null : w.at();
    }

    /** The YARN grant in force as far as this replica knows: what it published, else the persisted one. */
    private Resources yGrantOf(NodeWork w) {
        Resources mine = yarnPublished.get(w.node);
        return mine != null ? mine : w.side.grant(w.nm.nodeId()).map(BrokerReconciler::fromGrant).orElse(Resources.ZERO);
    }

    private static Resources fromGrant(YarnGrant g) {
        return fromYarn(new YarnSide.Usage(g.vcores(), g.memoryMB()));
    }

    /** YARN's vcores and MiB as the ledger's milli-cores and bytes. */
    static Resources fromYarn(YarnSide.Usage u) {
        return new Resources(u.vcores() * 1000L, u.memoryMB() * MIB);
    }

    private static String annotation(Node node, String key) {
        return node.getMetadata().getAnnotations() == null ? null : node.getMetadata().getAnnotations().get(key);
    }

    private static <T> T orDefault(T value, T fallback) {
        return value == null ? fallback : value;
    }

    static String describe(Resources r) {
        return r == null ? "removed" : r.cpuMilli() + "m/" + r.memoryBytes() / MIB + "Mi";
    }

    @Override
    public void close() {
        publishers.shutdownNow();
    }
}
