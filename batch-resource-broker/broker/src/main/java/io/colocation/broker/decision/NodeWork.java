package io.colocation.broker.reconcile;

import io.colocation.broker.arbitration.Decision;
import io.colocation.broker.calculation.NodeReclaim;
import io.colocation.broker.kube.NodeManagerIdentity;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationStrategy;
import io.fabric8.kubernetes.api.model.Node;
import java.util.List;

/**
 * Everything the pass decided for one node, before publication. {@code frozen} (with no decision) when the
 * node's grants stay as they are this pass; {@code degradedReason} when its Batch is not from fresh, valid
 * inputs; {@code currentBatch}/{@code currentMid} what the node carries as far as this replica knows.
 */
record NodeWork(String node, Node object, String frozen, String degradedReason, ColocationStrategy strategy, NodeReclaim reclaim,
        Resources origin, boolean drained, Resources capacity, Resources nodeUsage, Resources kubernetesUsed, Resources yarnUsed,
        NodeManagerIdentity.NodeManager nm, YarnSide side, boolean yarnReachable, Resources yarnApplied,
        Decision decision, Resources currentBatch, Resources currentMid, List<String> explain) {

    /** A node whose grants stay as published this pass. */
    static NodeWork frozen(String node, Node object, String cause, Resources currentBatch, Resources currentMid) {
        return new NodeWork(node, object, cause, "frozen: " + cause, null, null, Resources.ZERO, false, Resources.ZERO, null,
                Resources.ZERO, Resources.ZERO, null, null, true, null, null, currentBatch, currentMid, List.of("frozen: " + cause));
    }
}
