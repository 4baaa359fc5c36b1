package io.colocation.broker.reconcile;

import io.colocation.api.ResourceNames;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.arbitration.ArbitrationSettings;
import io.colocation.broker.arbitration.Decision;
import io.colocation.broker.arbitration.GrantArbiter;
import io.colocation.broker.arbitration.SideState;
import io.colocation.broker.calculation.NodeReclaim;
import io.colocation.model.Resources;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.config.ColocationConfig;
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
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's pass, an orchestrator that only sequences its stages: which nodes to decide (all on a full
 * pass, else those whose inputs changed), the per-node decision (the shared {@link NodeCalculation}, then
 * {@link GrantArbiter}), one writer per side ({@link KubernetesGrantWriter}, {@link YarnGrantWriter}, each
 * with its own memory of what it wrote and the fence check), and the pure {@link LedgerBuilder}; nodes are
 * published in parallel. Idempotent: a pass publishes only what differs from what the sides hold. Only the
 * leader publishes; a standby computes the same ledger for its API. When this replica takes the lead it
 * forgets what it believed was published, re-reads the grants from the node statuses and from ZooKeeper,
 * and re-stamps the YARN grants with its epoch.
 */
public final class BrokerReconciler implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerReconciler.class);
    /** Set to {@code "true"} on a Node to drain its Batch: origin counts as 0, grants are held at use, nothing is taken back. */
    public static final String ANNOTATION_DRAIN_BATCH = "colocation.io/drain-batch";

    private final ClusterInputs view;
    private final KubernetesSide kubernetes;
    private final Map<String, YarnSide> yarnSides;
    private final Leadership leadership;
    private final ArbitrationSettings arbitration;
    private final boolean matchHostNames;
    private final Clock clock;
    private final Ledger ledger;
    private final ExecutorService publishers;
    private final KubernetesGrantWriter kubernetesWriter;
    private final YarnGrantWriter yarnWriter;
    private final String policy;
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
        /** Node-passes in which use exceeded origin (excess to take back: YARN's grant shrinks below its use). */
        public final AtomicLong excesses = new AtomicLong();
        public volatile long lastPassMillis;
        public volatile long lastFullPassMillis;
        public volatile Instant lastPassAt;
    }

    /** A node input that cannot be read, first seen at {@code since}. */
    private record Fault(String cause, Instant since) {
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
        this.policy = arbitration.policy().name().toLowerCase(java.util.Locale.ROOT);
        // Written right before each write: this replica still leads with the epoch it resumed.
        BooleanSupplier fenceHolds = () -> leadership.fence().map(LeaderEpoch.Fence::epoch).orElse(-1L) == resumedEpoch;
        this.kubernetesWriter = new KubernetesGrantWriter(kubernetes, fenceHolds);
        this.yarnWriter = new YarnGrantWriter(fenceHolds);
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
        kubernetesWriter.forget();
        yarnWriter.forget();
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
                LOG.debug("node {}: unexpected failure of its publication", work.get(i).node(), e.getCause());
                entry = publish(frozen(work.get(i).object(), "unexpected error while publishing: " + e.getCause(), leading, now), leading, now);
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
        kubernetesWriter.retain(names);
        yarnWriter.retain(names);
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
        Resources used = side.used(nodeId).map(YarnUnits::of).orElse(Resources.ZERO);
        Resources applied = side.applied(nodeId).map(YarnUnits::of).orElse(null);
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
        KubernetesGrantWriter.Written written = kubernetesWriter.written(name, leading);
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
            yarnUsed = side.used(nodeId).map(YarnUnits::of).orElse(Resources.ZERO);
            yarnApplied = side.applied(nodeId).map(YarnUnits::of).orElse(null);
            yarnReachable = side.reachable(nodeId);
            Resources granted = yarnWriter.granted(name, side, nodeId, leading);
            // Never granted: YARN still runs on the NodeManager's own totals, so Kubernetes must not count on
            // any of origin until YARN acknowledges its first grant.
            Resources yPublished = granted != null ? granted : origin.max(yarnUsed);
            if (granted == null) {
                explain.add("YARN: no grant yet for " + nodeId + "; Kubernetes waits for YARN to acknowledge its first grant");
            }
            y = new SideState(yarnUsed, YarnUnits.of(side.demand()), yPublished, yarnApplied, yarnReachable);
            explain.add("YARN: NodeManager " + nodeId + " of cluster " + side.clusterId() + " (from " + nm.nodeManager().source() + ")"
                    + (yarnReachable ? "" : "; not reachable (no fresh report): its grant is frozen and Kubernetes does not grow into it"));
        }
        if (!apiServerUp) {
            explain.add("Kubernetes: informers are not watching: its grant is frozen and YARN does not grow into it");
        }
        Decision decision = drained ? GrantArbiter.drained(k, y)
                : side == null ? GrantArbiter.kubernetesOnly(origin, k) : GrantArbiter.decide(arbitration, origin, k, y);
        if (side != null && !drained) {
            decision = heldByKoordlet(node, decision, origin, y, now, explain);
        }
        explain.add(decision.explanation());
        return new NodeWork(name, node, null, degradedReason, outcome.strategy(), reclaim, origin, drained, capacity, nodeUsage, kubernetesUsed, yarnUsed,
                nm.nodeManager(), side, yarnReachable, yarnApplied, decision, currentBatch, currentMid, explain);
    }

    /**
     * The koordlet's {@link YarnRelease} on the node, while it lasts, holds YARN's grant at its limit (a malformed one
     * is ignored and named in the node's explanation).
     */
    private static Decision heldByKoordlet(Node node, Decision decision, Resources origin, SideState yarn, Instant now,
            List<String> explain) {
        String json = annotation(node, YarnRelease.ANNOTATION);
        if (json == null) {
            return decision;
        }
        YarnRelease release;
        try {
            release = YarnRelease.parse(json, "Node " + node.getMetadata().getName());
        } catch (InvalidInputException e) {
            explain.add("ignored " + e.getMessage());
            return decision;
        }
        if (!release.activeAt(now)) {
            return decision;
        }
        explain.add("YARN: the koordlet asks YARN down to " + release.limit().describe() + " until " + release.expires() + " ("
                + release.reason() + (release.containers().isEmpty() ? "" : "; its victims " + String.join(", ", release.containers()))
                + ")" + (yarn.reachable() ? "" : "; YARN is not reachable, the release waits"));
        return GrantArbiter.yarnHeldAt(decision, origin, release.limit(), yarn);
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
        KubernetesGrantWriter.Written written = kubernetesWriter.written(name, leading);
        List<String> unreadable = new ArrayList<>();
        Resources currentBatch = written != null ? written.batch()
                : NodeInputs.published(node, ResourceNames.BATCH_CPU, ResourceNames.BATCH_MEMORY, unreadable);
        Resources currentMid = written != null ? written.mid()
                : NodeInputs.published(node, ResourceNames.MID_CPU, ResourceNames.MID_MEMORY, unreadable);
        unreadable.forEach(note -> LOG.warn("node {}: {}", name, note));
        return NodeWork.frozen(name, node, cause, currentBatch, currentMid);
    }

    /** Publishes one node's decision to each side (only while leading) and builds its ledger. */
    private NodeLedger publish(NodeWork w, boolean leading, Instant now) {
        if (w.frozen() != null) {
            Resources kGrant = w.currentBatch() == null ? Resources.ZERO : w.currentBatch();
            return LedgerBuilder.frozen(w, policy, kGrant, yarnWriter.publishedOrZero(w.node()), kubernetesWriter.last(w.node()),
                    yarnWriter.last(w.node()), now);
        }
        Decision d = w.decision();
        Map<String, Long> allocatable = w.reclaim().allocatable();
        Resources batch = allocatable.containsKey(ResourceNames.BATCH_CPU) ? d.kubernetesPublish() : null;
        Resources mid = allocatable.containsKey(ResourceNames.MID_CPU)
                ? new Resources(allocatable.get(ResourceNames.MID_CPU), allocatable.get(ResourceNames.MID_MEMORY)) : null;
        Publication kPub = leading ? kubernetesWriter.publishIfDue(w, batch, mid, now) : kubernetesWriter.last(w.node());
        Publication yPub = yarnWriter.last(w.node());
        YarnGrant grant = null;
        Resources yGrant = Resources.ZERO;
        if (w.side() != null) {
            if (leading && w.yarnReachable()) {
                yPub = yarnWriter.publishIfChanged(w, d.yarnPublish(), now);
            }
            grant = w.side().grant(w.nm().nodeId()).orElse(null);
            yGrant = yarnWriter.inForce(w.node(), w.side(), w.nm().nodeId());
        }
        return LedgerBuilder.decided(w, policy, mid, kubernetesWriter.grantInForce(w, leading), yGrant, grant, kPub, yPub, now);
    }

    private static String annotation(Node node, String key) {
        return node.getMetadata().getAnnotations() == null ? null : node.getMetadata().getAnnotations().get(key);
    }

    @Override
    public void close() {
        publishers.shutdownNow();
    }
}
