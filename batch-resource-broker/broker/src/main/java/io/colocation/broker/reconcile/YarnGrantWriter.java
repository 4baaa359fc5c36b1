package io.colocation.broker.reconcile;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.decision.NodeWork;
import io.colocation.broker.decision.YarnFacts;
import io.colocation.broker.ledger.NodeLedger.Publication;
import io.colocation.broker.yarn.NotLeaderException;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.model.Resources;
import java.io.IOException;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pass's one writer of YARN grants. It remembers what this leader published per node (in whole vcores
 * and MiB, as YARN receives it) and each node's last publication, writes only a changed grant, and checks
 * the fence before each write (the side's own epoch check in ZooKeeper stays the last word).
 */
final class YarnGrantWriter {
    private static final Logger LOG = LoggerFactory.getLogger(YarnGrantWriter.class);

    private final BooleanSupplier fenceHolds;
    private final Map<String, Resources> published = new ConcurrentHashMap<>();
    /** What each of those grants keeps from preemption. */
    private final Map<String, Resources> keptPublished = new ConcurrentHashMap<>();
    private final Map<String, Publication> last = new ConcurrentHashMap<>();

    YarnGrantWriter(BooleanSupplier fenceHolds) {
        this.fenceHolds = fenceHolds;
    }

    Publication last(String node) {
        return last.get(node);
    }

    /**
     * The grant this leader starts its decision from: what it published, else the one persisted for the
     * NodeManager (then remembered), null when YARN was never granted anything there.
     */
    Resources granted(String node, YarnFacts yarn, boolean leading) {
        Resources mine = leading ? published.get(node) : null;
        if (mine != null) {
            return mine;
        }
        Resources persisted = yarn.persisted() == null ? null : YarnUnits.of(yarn.persisted());
        if (leading && persisted != null) {
            published.putIfAbsent(node, persisted);
            keptPublished.putIfAbsent(node, YarnUnits.of(new YarnSide.Usage(yarn.persisted().keepVcores(),
                    yarn.persisted().keepMemoryMB())));
        }
        return persisted;
    }

    /** The grant in force as far as this replica knows: what it published, else the persisted one, else zero. */
    Resources inForce(String node, YarnFacts yarn) {
        Resources mine = published.get(node);
        return mine != null ? mine : yarn.persisted() == null ? Resources.ZERO : YarnUnits.of(yarn.persisted());
    }

    /** What this leader published to the node, zero when nothing (a frozen node's ledger). */
    Resources publishedOrZero(String node) {
        return published.getOrDefault(node, Resources.ZERO);
    }

    /** The node's last publication, and the grant as persisted by this pass's write (null: nothing written now). */
    record Result(Publication publication, YarnGrant written) {
    }

    /**
     * Publishes {@code grant} keeping {@code keep} from preemption (both rounded down to whole vcores and MiB) to
     * {@code side} when either differs from what was published.
     */
    Result publishIfChanged(NodeWork w, YarnSide side, Resources grant, Resources keep, Instant now) {
        YarnSide.Usage yarn = YarnUnits.toYarn(grant);
        YarnSide.Usage kept = YarnUnits.toYarn(keep);
        Resources wanted = YarnUnits.of(yarn);
        Resources keptWanted = YarnUnits.of(kept);
        Resources before = published.get(w.node());
        if (wanted.equals(before) && keptWanted.equals(keptPublished.getOrDefault(w.node(), Resources.ZERO))
                || !fenceHolds.getAsBoolean()) {
            return new Result(last.get(w.node()), null);
        }
        String reason = before == null || wanted.cpuMilli() < before.cpuMilli() || wanted.memoryBytes() < before.memoryBytes()
                ? "shrink or first grant" : "grow";
        Publication pub;
        YarnGrant g = null;
        try {
            g = side.publish(w.yarn().nodeId(), yarn.vcores(), yarn.memoryMB(), kept);
            published.put(w.node(), wanted);
            keptPublished.put(w.node(), keptWanted);
            LOG.info("node {}: YARN {} grant {} vcores / {} MiB{} (epoch {}, version {}; {})", w.node(), w.yarn().nodeId(), yarn.vcores(),
                    yarn.memoryMB(), kept.equals(YarnSide.Usage.NONE) ? ""
                            : ", keeping " + kept.vcores() + " vcores / " + kept.memoryMB() + " MiB from preemption",
                    g.epoch(), g.version(), reason);
            pub = new Publication(now, wanted, reason, null);
        } catch (NotLeaderException | IOException | RuntimeException e) {
            LOG.warn("node {}: YARN publication failed: {}", w.node(), e.getMessage());
            pub = new Publication(now, wanted, reason, e.getMessage());
        }
        last.put(w.node(), pub);
        return new Result(pub, g);
    }

    /** Forgets what was published, so the next pass starts from the persisted grants again. */
    void forget() {
        published.clear();
        keptPublished.clear();
    }

    void retain(Collection<String> nodes) {
        published.keySet().retainAll(nodes);
        keptPublished.keySet().retainAll(nodes);
        last.keySet().retainAll(nodes);
    }
}
