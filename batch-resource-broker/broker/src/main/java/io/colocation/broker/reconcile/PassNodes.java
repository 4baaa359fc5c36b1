package io.colocation.broker.reconcile;

import io.colocation.broker.decision.YarnFacts;
import io.colocation.broker.ledger.Ledger;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.broker.publication.PublicationMemory;
import io.colocation.broker.yarn.YarnSide;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which nodes a pass decides. A full pass decides every node at once (a new leader, a config or API server change).
 * An incremental pass decides the nodes whose inputs changed (their Node, pods or NodeMetric; their YARN side moved
 * since their ledger; no ledger yet; a failed write; a Kubernetes shrink just settled) and, every {@code every}, the
 * periodic full pass in slices: all nodes are queued and each pass takes the next {@code slice}, so a change waits
 * behind one slice, not behind every node; the pass that takes the last slice completes that full pass.
 */
final class PassNodes {
    private final Duration every;
    private final int slice;
    private final Map<String, YarnSide> yarnSides;
    private final Ledger ledger;
    private final PublicationMemory memory;
    /** Nodes whose write failed in the last pass: decided again in the next one. */
    private final Set<String> retry = ConcurrentHashMap.newKeySet();
    private final ArrayDeque<String> sweep = new ArrayDeque<>();
    private Instant lastStarted;
    private long startedNanos;

    /** What an incremental pass decides, and whether it takes a sweep's last slice (it then completes a full pass). */
    record Selection(List<Node> nodes, boolean completesFullPass) {
    }

    PassNodes(Duration every, int slice, Map<String, YarnSide> yarnSides, Ledger ledger, PublicationMemory memory) {
        if (slice < 1) {
            throw new IllegalArgumentException("the full pass's slice must hold at least one node: " + slice);
        }
        this.every = every;
        this.slice = slice;
        this.yarnSides = yarnSides;
        this.ledger = ledger;
        this.memory = memory;
    }

    /** No full pass has run yet. */
    boolean never() {
        return lastStarted == null;
    }

    /** This pass decides every node at once. */
    void fullPass(Instant now, long nanos) {
        lastStarted = now;
        startedNanos = nanos;
        sweep.clear();
        retry.clear();
    }

    /** The node's write failed: the next pass decides it again. */
    void retry(String node) {
        retry.add(node);
    }

    /** The nodes an incremental pass decides: those that changed, and the sweep's next slice when one is under way or due. */
    Selection select(Set<String> changed, List<Node> all, NodeFactsReader.Pass pass, Instant now, long nanos) {
        List<Node> out = changedNodes(all, changed, pass);
        retry.clear();
        if (sweep.isEmpty() && !now.isBefore(lastStarted.plus(every))) {
            lastStarted = now;
            startedNanos = nanos;
            all.forEach(n -> sweep.add(n.getMetadata().getName()));
        }
        if (sweep.isEmpty()) {
            return new Selection(out, false);
        }
        // the slice as the nodes are now: one gone since the sweep began is skipped
        Map<String, Node> byName = new HashMap<>();
        for (Node node : all) {
            byName.put(node.getMetadata().getName(), node);
        }
        Set<String> chosen = new HashSet<>();
        for (Node node : out) {
            chosen.add(node.getMetadata().getName());
        }
        for (int i = 0; i < slice && !sweep.isEmpty(); i++) {
            Node node = byName.get(sweep.poll());
            if (node != null && chosen.add(node.getMetadata().getName())) {
                out.add(node);
            }
        }
        return new Selection(out, sweep.isEmpty());
    }

    /** A sweep has nodes left for the next pass. */
    boolean sweeping() {
        return !sweep.isEmpty();
    }

    /** How long the last full pass took, from its first slice to {@code nanos}. */
    long millisSinceStart(long nanos) {
        return (nanos - startedNanos) / 1_000_000;
    }

    /**
     * Nodes whose Node, pods or NodeMetric changed, whose YARN side moved since their ledger (use, applied capacity,
     * grant, reachability, the grant in force now confirmed; only nodes whose YARN documents changed are compared, so a
     * report that merely grew stale waits for the full pass), without a ledger yet, whose last write failed, or whose
     * Kubernetes shrink just settled. Everything else keeps its ledger until the next full pass.
     */
    private List<Node> changedNodes(List<Node> all, Set<String> changed, NodeFactsReader.Pass pass) {
        // Comparing every node's YARN facts cost most of such a pass at 5,000 nodes: only nodes whose YARN documents
        // changed are compared, where the side can tell.
        Map<String, Set<String>> yarnChanged = new HashMap<>();
        for (YarnSide side : yarnSides.values()) {
            Set<String> nodes = side.takeChangedNodes();
            if (nodes != null) {
                yarnChanged.put(side.clusterId(), nodes);
            }
        }
        List<Node> out = new ArrayList<>();
        for (Node node : all) {
            String name = node.getMetadata().getName();
            if (changed.contains(name) || retry.contains(name) || yarnMoved(name, pass, yarnChanged)
                    || memory.settledSinceAsked(name)) {
                out.add(node);
            }
        }
        return out;
    }

    private boolean yarnMoved(String node, NodeFactsReader.Pass pass, Map<String, Set<String>> yarnChanged) {
        NodeLedger l = ledger.get(node).orElse(null);
        if (l == null) {
            return true;
        }
        Set<String> changedOnSide = l.yarn() == null ? null : yarnChanged.get(l.yarn().clusterId());
        if (changedOnSide != null && !changedOnSide.contains(l.yarn().nodeId())) {
            return false;
        }
        YarnFacts now = l.yarn() == null ? null : pass.yarn(l.yarn().clusterId(), l.yarn().nodeId());
        if (now == null) {
            return false;
        }
        return !now.used().equals(l.yarnUsed()) || !Objects.equals(now.applied(), l.yarnApplied())
                || now.reachable() != l.yarn().reachable() || !Objects.equals(now.grantVersion(), l.yarn().grantVersion())
                || !l.yarn().acknowledged() && now.unconfirmed() == null && Objects.equals(now.applied(), l.yarnGrant());
    }
}
