package io.colocation.broker.reconcile;

import io.colocation.broker.decision.NodeWork;
import io.colocation.broker.kube.BatchPublication;
import io.colocation.broker.kube.KubernetesSide;
import io.colocation.broker.kube.NodeStatusPublisher;
import io.colocation.broker.kube.PublicationThreshold;
import io.colocation.broker.ledger.NodeLedger.Publication;
import io.colocation.model.Resources;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pass's one writer of Batch and Mid to Kubernetes nodes. It remembers what this leader wrote (the
 * informer may not show it yet) and each node's last publication, writes only when Koordinator's thresholds
 * say so, and checks the fence right before each write: the API server cannot check an epoch.
 */
final class KubernetesGrantWriter {
    private static final Logger LOG = LoggerFactory.getLogger(KubernetesGrantWriter.class);

    /** Batch and Mid as written (null: removed) and when. */
    record Written(Resources batch, Resources mid, Instant at) {
    }

    private final KubernetesSide side;
    private final BooleanSupplier fenceHolds;
    private final Map<String, Written> written = new ConcurrentHashMap<>();
    private final Map<String, Publication> last = new ConcurrentHashMap<>();
    /** The origin this leader last wrote to each node's annotation. */
    private final Map<String, Resources> originWritten = new ConcurrentHashMap<>();
    /** A shrink written less than {@code settle} ago: the grant before it and when (System.nanoTime). */
    private final Map<String, Shrink> settling = new ConcurrentHashMap<>();
    private final Duration settle;

    private record Shrink(Resources from, long atNanos) {
    }

    KubernetesGrantWriter(KubernetesSide side, BooleanSupplier fenceHolds, Duration settle) {
        this.side = side;
        this.fenceHolds = fenceHolds;
        this.settle = settle;
    }

    /**
     * The Batch grant before a shrink this leader wrote less than the settle time ago, else null: the k8s-scheduler may
     * still bind pods it placed on that grant, so YARN does not grow into the shrink yet.
     */
    Resources settlingFrom(String node) {
        Shrink s = settling.get(node);
        return s == null || settled(s) ? null : s.from();
    }

    /** Whether a shrink of the node has settled since last asked (no event announces it: the node is to be decided). */
    boolean settledSinceAsked(String node) {
        Shrink s = settling.get(node);
        return s != null && settled(s) && settling.remove(node, s);
    }

    private boolean settled(Shrink s) {
        return System.nanoTime() - s.atNanos() >= settle.toNanos();
    }

    /** What this leader wrote to the node since it took the lead, null if nothing (or not leading). */
    Written written(String node, boolean leading) {
        return leading ? written.get(node) : null;
    }

    Publication last(String node) {
        return last.get(node);
    }

    /** The Batch grant in force: what this leader wrote, else what the node carried when decided. */
    Resources grantInForce(NodeWork w, boolean leading) {
        Written mine = written(w.node(), leading);
        Resources batch = mine != null ? mine.batch() : w.currentBatch();
        return batch == null ? Resources.ZERO : batch;
    }

    /** Writes the node's Batch and Mid when the thresholds call for it; returns the node's last publication. */
    Publication publishIfDue(NodeWork w, Resources batch, Resources mid, Instant now) {
        Written mine = written.get(w.node());
        String reason = PublicationThreshold.reason(w.currentBatch(), batch, w.currentMid(), mid, mine == null ? null : mine.at(),
                orDefault(w.strategy().resourceDiffThreshold(), 0.1), orDefault(w.strategy().updateTimeThresholdSeconds(), 300L), now);
        if (reason == null || !fenceHolds.getAsBoolean()) {
            return last.get(w.node());
        }
        BatchPublication p = new BatchPublication(batch, mid, w.origin(), w.yarnUsed());
        Publication pub;
        try {
            side.publish(w.node(), w.object(), p);
            Resources before = w.currentBatch();
            if (before != null && !settle.isZero() && (batch == null || !before.fitsIn(batch))) {
                Shrink earlier = settling.get(w.node());
                settling.put(w.node(), new Shrink(earlier == null ? before : earlier.from().max(before), System.nanoTime()));
            }
            written.put(w.node(), new Written(batch, mid, now));
            originWritten.put(w.node(), w.origin());
            LOG.info("node {}: Kubernetes batch {} ({}), origin {}, used k8s {} / yarn {}", w.node(), describe(batch), reason,
                    describe(w.origin()), describe(w.kubernetesUsed()), describe(w.yarnUsed()));
            pub = new Publication(now, batch, reason, null);
        } catch (IOException | RuntimeException e) {
            LOG.warn("node {}: Kubernetes publication failed: {}", w.node(), e.getMessage());
            pub = new Publication(now, batch, reason, e.getMessage());
        }
        last.put(w.node(), pub);
        return pub;
    }

    /**
     * Before YARN's grant grows to {@code yarnGrant}: makes the node's origin annotation cover it with what Kubernetes
     * may hold (its grant in force, or its use when more: pods bound before a shrink), writing the node's current origin
     * when the annotation shows less (the status thresholds may have left it behind). Returns false when that write
     * failed: the grow must wait.
     */
    boolean coverBeforeGrow(NodeWork w, Resources kubernetesGrant, Resources yarnGrant) {
        Resources needed = kubernetesGrant.max(w.kubernetesUsed()).plus(yarnGrant);
        Resources shown = originWritten.containsKey(w.node()) ? originWritten.get(w.node()) : NodeStatusPublisher.annotatedOrigin(w.object());
        boolean covered = shown != null && needed.fitsIn(shown);
        boolean helps = shown == null || !w.origin().fitsIn(shown);
        if (covered || !helps || !fenceHolds.getAsBoolean()) {
            return true;
        }
        try {
            side.publishOrigin(w.node(), new BatchPublication(null, null, w.origin(), w.yarnUsed()));
            originWritten.put(w.node(), w.origin());
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.warn("node {}: cannot publish its origin before YARN's grant grows: {}", w.node(), e.getMessage());
            return false;
        }
    }

    /** Forgets what was written, so the next pass compares with the node statuses again. */
    void forget() {
        written.clear();
        originWritten.clear();
        settling.clear();
    }

    void retain(Collection<String> nodes) {
        written.keySet().retainAll(nodes);
        last.keySet().retainAll(nodes);
        originWritten.keySet().retainAll(nodes);
        settling.keySet().retainAll(nodes);
    }

    /** Batch as the log shows it: milli-cores and MiB, or "removed". */
    private static String describe(Resources r) {
        return r == null ? "removed" : r.describe();
    }

    private static <T> T orDefault(T value, T fallback) {
        return value == null ? fallback : value;
    }
}
