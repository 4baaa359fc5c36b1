package io.colocation.broker.reconcile;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.arbitration.ArbitrationSettings;
import io.colocation.broker.calculation.NodeCalculationMemo;
import io.colocation.broker.decision.InputFault;
import io.colocation.broker.decision.KubernetesDemand;
import io.colocation.broker.decision.NodeDecision;
import io.colocation.broker.decision.NodeWork;
import io.colocation.broker.decision.YarnFacts;
import io.colocation.broker.kube.ClusterInputs;
import io.colocation.broker.kube.KubernetesSide;
import io.colocation.broker.ledger.Ledger;
import io.colocation.broker.ledger.NodeLedger.Publication;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.broker.nodeagent.ReleaseProof;
import io.colocation.broker.publication.NodeMemory;
import io.colocation.broker.publication.PublicationExecutor;
import io.colocation.broker.publication.PublicationMemory;
import io.colocation.broker.publication.PublicationPlan;
import io.colocation.broker.publication.PublicationPlanner;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.broker.yarn.Leadership;
import io.colocation.broker.yarn.NotLeaderException;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.helpers.concurrent.Daemons;
import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.model.Resources;
import io.fabric8.kubernetes.api.model.Node;
import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's pass, an orchestrator of stages: which nodes to decide ({@link PassNodes}: all on a full pass, else
 * those whose inputs changed and the periodic full pass's next slice), each node's facts read once
 * ({@link NodeFactsReader}), the pure per-node decision ({@link NodeDecision}), each node's publication plan
 * ({@link PublicationPlanner}, pure, on the node's {@link NodeMemory}) carried out by the one writer to both sides
 * ({@link PublicationExecutor}, which checks the fence before each write), and the pure {@link LedgerBuilder}; each node
 * is decided and published on one thread, nodes in parallel ({@code sync.publishThreads}). Idempotent: a pass publishes
 * only what differs from what the sides hold. Only the leader publishes; a standby computes the same ledger for its API.
 * When this replica takes the lead it forgets what it believed was published, re-reads the grants from the node
 * statuses and from ZooKeeper, and re-stamps the YARN grants with its epoch.
 */
public final class BrokerReconciler implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerReconciler.class);

    private final ClusterInputs view;
    private final KubernetesSide kubernetes;
    private final Map<String, YarnSide> yarnSides;
    private final Leadership leadership;
    private final ArbitrationSettings arbitration;
    private final Ledger ledger;
    private final Clock clock;
    private final String policy;
    private final ExecutorService publishers;
    private final PublicationMemory memory;
    private final PublicationExecutor executor;
    private final NodeCalculationMemo calculations = new NodeCalculationMemo();
    private final NodeFactsReader reader;
    /** Nodes whose inputs cannot be read: since when, and why. */
    private final Map<String, InputFault> faults = new ConcurrentHashMap<>();
    /** Since when each node's use has been above its origin (partitioned: the excess is taken back once it lasts). */
    private final Map<String, java.time.Instant> excessSince = new ConcurrentHashMap<>();
    private final DistinctWarnings nodeWarnings = new DistinctWarnings(LOG);
    private final DistinctWarnings demandWarnings = new DistinctWarnings(LOG);
    private final AtomicBoolean fullPassDue = new AtomicBoolean(true);
    private final PassStats stats = new PassStats();
    private volatile long resumedEpoch = -1;
    private volatile String resumeProblem;
    private final PassNodes passNodes;
    private boolean lastLeading;
    private boolean lastApiServerUp;

    /** What one pass did; {@code sweeping}: a periodic full pass has nodes left for the next pass, due at once. */
    public record PassReport(boolean leading, int nodes, int kubernetesWrites, int yarnWrites, int errors, long millis,
            boolean sweeping) {
    }

    /**
     * @param fullPassEvery how often every node is decided (the safety net for what no event announces)
     * @param sweepSlice    how many nodes of that periodic full pass one pass decides beside the changed ones
     * @param releaseProof  the stamp a koordlet's yarn-release must carry (nodeAgent.restricted); null: none is asked
     */
    public BrokerReconciler(ClusterInputs view, KubernetesSide kubernetes, Map<String, YarnSide> yarnSides,
            Leadership leadership, ArbitrationSettings arbitration, boolean matchHostNames, int publishThreads,
            Ledger ledger, Clock clock, Duration fullPassEvery, int sweepSlice, ReleaseProof releaseProof) {
        this.view = view;
        this.kubernetes = kubernetes;
        this.yarnSides = Map.copyOf(yarnSides);
        this.leadership = leadership;
        this.arbitration = arbitration;
        this.ledger = ledger;
        this.clock = clock;
        this.policy = arbitration.policy().name().toLowerCase(Locale.ROOT);
        // Checked right before each write: this replica still leads with the epoch it resumed.
        BooleanSupplier fenceHolds = () -> leadership.fence().map(LeaderEpoch.Fence::epoch).orElse(-1L) == resumedEpoch;
        this.memory = new PublicationMemory(arbitration.kubernetesShrinkSettle());
        this.executor = new PublicationExecutor(kubernetes, this.yarnSides, memory, fenceHolds);
        this.reader = new NodeFactsReader(view, this.yarnSides, matchHostNames, calculations, memory, releaseProof);
        this.publishers = Executors.newFixedThreadPool(publishThreads, Daemons.named("broker-publish"));
        this.passNodes = new PassNodes(fullPassEvery, sweepSlice, this.yarnSides, ledger, memory);
    }

    public PassStats stats() {
        return stats;
    }

    /** Nodes whose inputs cannot be read now (frozen, or Batch removed after the grace), with why. */
    public Map<String, String> nodeFaults() {
        Map<String, String> out = new TreeMap<>();
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
        memory.forgetWritten();
        fullPassDue.set(true);
    }

    public PassReport reconcileAll() {
        long started = System.nanoTime();
        Instant now = clock.instant();
        Optional<LeaderEpoch.Fence> fence = leadership.fence();
        boolean leading = fence.isPresent();
        boolean full = fullPassDue.getAndSet(false) || passNodes.never() || leading != lastLeading;
        if (leading && fence.get().epoch() != resumedEpoch) {
            leading = resume(fence.get().epoch());
            full = true;
        }
        lastLeading = leading;
        ClusterInputs.Changes changes = view.takeChanges();
        NodeFactsReader.Pass pass = reader.pass(kubernetesDemand(), leading, now);
        full |= changes.everything() || pass.apiServerUp() != lastApiServerUp || !view.configUsable();
        lastApiServerUp = pass.apiServerUp();
        List<Node> all = view.nodes();
        List<Node> nodes;
        if (full) {
            nodes = all;
            passNodes.fullPass(now, started);
        } else {
            PassNodes.Selection selection = passNodes.select(changes.nodes(), all, pass, now, started);
            nodes = selection.nodes();
            full = selection.completesFullPass();
        }
        PassReport report = decideAndPublish(nodes, pass, started);
        if (full) {
            forgetGone(all);
            stats.fullPasses.incrementAndGet();
            stats.lastFullPassMillis = passNodes.millisSinceStart(System.nanoTime()); // its first slice to its last
        }
        if (report.kubernetesWrites() + report.yarnWrites() + report.errors() > 0) {
            LOG.info("pass: {} of {} nodes decided, {} Kubernetes and {} YARN writes, {} errors, {} ms{}", nodes.size(), all.size(),
                    report.kubernetesWrites(), report.yarnWrites(), report.errors(), report.millis(), leading ? "" : " (standby)");
        }
        return report;
    }

    /** One node's decision from its facts; an input shape no validation foresaw freezes this node alone. */
    private NodeWork decide(Node node, NodeFactsReader.Pass pass) {
        NodeWork w;
        try {
            String name = node.getMetadata().getName();
            w = NodeDecision.decide(pass.read(node, faults.get(name), excessSince.get(name)), arbitration);
        } catch (RuntimeException e) {
            LOG.debug("node {}: unexpected failure of its decision", node.getMetadata().getName(), e);
            w = failed(node, "unexpected error while deciding: " + e, pass);
        }
        keepFault(w, pass.leading());
        return w;
    }

    /** A node frozen by a failure of the broker itself: its grants stay as they are, a Warning says why. */
    private NodeWork failed(Node node, String cause, NodeFactsReader.Pass pass) {
        String name = node.getMetadata().getName();
        InputFault prior = faults.get(name);
        NodeFactsReader.Carried carried = pass.carried(node);
        return NodeWork.frozen(name, node, cause, prior != null ? prior : new InputFault(cause, pass.now()),
                new NodeWork.Report("BatchFrozen", cause), carried.batch(), carried.mid());
    }

    /** Keeps the node's input fault for the next pass; WARN once per node and cause, and (leading) a Warning Event. */
    private void keepFault(NodeWork w, boolean leading) {
        NodeWork.Handover h = w.handover();
        if (w.frozen() == null) {
            if (h.excessSince() != null) {
                excessSince.put(w.node(), h.excessSince());
            } else {
                excessSince.remove(w.node());
            }
        }
        if (h.fault() != null) {
            faults.put(w.node(), h.fault());
        } else if (w.frozen() == null) {
            faults.remove(w.node());
            nodeWarnings.resolved(w.node());
        }
        if (h.report() != null && nodeWarnings.warn(w.node(), h.report().message()) && leading) {
            kubernetes.warn(w.node(), h.report().reason(), h.report().message());
        }
    }

    /**
     * Decides and publishes every node in parallel, each node on one thread from its facts to its writes (a node's
     * decision reads only its own objects and the pass's shared facts); puts each ledger in the nodes' order and counts
     * what was written.
     */
    private PassReport decideAndPublish(List<Node> nodes, NodeFactsReader.Pass pass, long started) {
        boolean leading = pass.leading();
        Instant now = pass.now();
        List<Future<NodeLedger>> done = new ArrayList<>(nodes.size());
        for (Node node : nodes) {
            done.add(publishers.submit(() -> publish(decide(node, pass), leading, now)));
        }
        int kWrites = 0;
        int yWrites = 0;
        int errors = 0;
        for (int i = 0; i < done.size(); i++) {
            NodeLedger entry;
            try {
                entry = done.get(i).get();
            } catch (ExecutionException e) {
                LOG.debug("node {}: unexpected failure of its publication", nodes.get(i).getMetadata().getName(), e.getCause());
                NodeWork frozen = failed(nodes.get(i), "unexpected error while publishing: " + e.getCause(), pass);
                keepFault(frozen, leading);
                entry = publish(frozen, leading, now);
                errors++;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            ledger.put(entry);
            for (Publication p : new Publication[] {entry.lastKubernetesPublication(), entry.lastYarnPublication()}) {
                if (p == null || !p.at().equals(now)) {
                    continue;
                }
                if (p.error() != null) {
                    errors++;
                    passNodes.retry(entry.node());
                } else if (p == entry.lastKubernetesPublication()) {
                    kWrites++;
                } else {
                    yWrites++;
                }
            }
            if (!entry.overcommit().equals(Resources.ZERO)) {
                stats.overcommits.incrementAndGet();
            }
            if (!entry.excess().equals(Resources.ZERO)) {
                stats.excesses.incrementAndGet();
            }
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        stats.passes.incrementAndGet();
        stats.kubernetesWrites.addAndGet(kWrites);
        stats.yarnWrites.addAndGet(yWrites);
        stats.publishErrors.addAndGet(errors);
        stats.lastPassMillis = millis;
        stats.lastPassAt = now;
        return new PassReport(leading, nodes.size(), kWrites, yWrites, errors, millis, passNodes.sweeping());
    }

    /** Publishes one node's decision to each side (only while leading: its plan, carried out) and builds its ledger. */
    private NodeLedger publish(NodeWork w, boolean leading, Instant now) {
        if (w.frozen() != null) {
            NodeMemory m = memory.of(w.node());
            return LedgerBuilder.frozen(w, policy, w.currentBatch() == null ? Resources.ZERO : w.currentBatch(),
                    m.yarnPublished() == null ? Resources.ZERO : m.yarnPublished(), m.lastKubernetes(), m.lastYarn(), now);
        }
        PublicationPlan plan = PublicationPlanner.plan(w, memory.of(w.node()), leading, now);
        PublicationExecutor.Outcome done = executor.execute(w, plan, now);
        NodeMemory m = done.memory();
        YarnFacts yarn = w.yarn();
        YarnGrant grant = yarn == null ? null : done.yarnWritten() != null ? done.yarnWritten() : yarn.persisted();
        Resources yGrant = yarn == null ? Resources.ZERO : m.yarnGrantInForce(yarn);
        return LedgerBuilder.decided(w, policy, PublicationPlanner.mid(w), m.kubernetesGrantInForce(w.currentBatch(), leading), yGrant,
                grant, m.lastKubernetes(), m.lastYarn(), now);
    }

    /** Forgets what it kept of nodes that are gone (on full passes, which see every node). */
    private void forgetGone(List<Node> all) {
        Set<String> names = new HashSet<>();
        for (Node node : all) {
            names.add(node.getMetadata().getName());
        }
        ledger.retain(names);
        faults.keySet().retainAll(names);
        excessSince.keySet().retainAll(names);
        calculations.retain(names);
        nodeWarnings.retain(names);
        memory.retain(names);
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

    /** Kubernetes' pending demand; pods whose request cannot be read are warned about once and not counted. */
    private Resources kubernetesDemand() {
        KubernetesDemand demand = KubernetesDemand.of(view.unboundPods());
        demand.refused().forEach(demandWarnings::warn);
        demandWarnings.current().keySet().stream().filter(pod -> !demand.refused().containsKey(pod)).forEach(demandWarnings::resolved);
        return demand.total();
    }

    @Override
    public void close() {
        publishers.shutdownNow();
    }
}
