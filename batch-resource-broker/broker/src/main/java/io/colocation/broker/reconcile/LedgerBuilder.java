package io.colocation.broker.reconcile;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.arbitration.Decision;
import io.colocation.broker.decision.NodeWork;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.broker.ledger.NodeLedger.Publication;
import io.colocation.model.Resources;
import java.time.Instant;
import java.util.List;

/** A node's ledger from what the pass decided and what is in force on each side: pure, no I/O. */
final class LedgerBuilder {
    private LedgerBuilder() {
    }

    /** A frozen node: the grants in force, nothing decided. */
    static NodeLedger frozen(NodeWork w, String policy, Resources kubernetesGrant, Resources yarnGrant, Publication kubernetes,
            Publication yarn, Instant now) {
        return new NodeLedger(w.node(), policy, Resources.ZERO, null, Resources.ZERO, Resources.ZERO, Resources.ZERO, Resources.ZERO,
                kubernetesGrant, yarnGrant, kubernetesGrant, yarnGrant, null, Resources.ZERO, Resources.ZERO, w.currentMid(), true,
                w.degradedReason(), false, null, kubernetes, yarn, now, w.explain());
    }

    /**
     * A decided node. {@code grant} is the YARN grant persisted for its NodeManager (null: none or no
     * NodeManager); YARN has acknowledged when the capacity it applied is the grant in force and no grant published
     * before it is still unconfirmed.
     */
    static NodeLedger decided(NodeWork w, String policy, Resources mid, Resources kubernetesGrant, Resources yarnGrant,
            YarnGrant grant, Publication kubernetes, Publication yarn, Instant now) {
        Decision d = w.decision();
        NodeWork.Basis b = w.basis();
        NodeLedger.YarnNode yarnNode = b.nm() == null ? null : new NodeLedger.YarnNode(b.nm().clusterId(), b.nm().nodeId(),
                b.nm().source(), w.yarn() == null || w.yarn().reachable(), grant == null ? null : grant.epoch(),
                grant == null ? null : grant.version(), w.yarn() != null && w.yarn().unconfirmed() == null && w.yarn().applied() != null
                && w.yarn().applied().equals(yarnGrant));
        return new NodeLedger(w.node(), policy, b.capacity(), b.nodeUsage(), b.origin(), b.kubernetesUsed(), w.yarnUsed(),
                b.origin().minus(b.kubernetesUsed()).minus(w.yarnUsed()), d.kubernetesTarget(), d.yarnTarget(), kubernetesGrant,
                yarnGrant, w.yarn() == null ? null : w.yarn().applied(), d.excess(), d.overcommit(), mid, b.reclaim().degraded(), w.degradedReason(), b.drained(),
                yarnNode, kubernetes, yarn, now, List.copyOf(w.explain()));
    }
}
