package io.colocation.broker.decision;

import io.colocation.broker.arbitration.Decision;
import io.colocation.broker.calculation.NodeReclaim;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationStrategy;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Instant;
import java.util.List;

/**
 * Everything a pass decided for one node, before publication. {@code frozen} (with no decision) when the
 * node's grants stay as they are this pass; {@code degradedReason} when its Batch is not from fresh, valid
 * inputs; {@code currentBatch}/{@code currentMid} what the node carries as far as this replica knows;
 * {@code fault} the node's input fault after this pass (null: none) and {@code report} the Warning to raise
 * for it (null: nothing to report); {@code excessSince} since when use has been above origin (null: it is not).
 */
public record NodeWork(String node, Node object, String frozen, String degradedReason, ColocationStrategy strategy,
        NodeReclaim reclaim, Resources origin, boolean drained, Resources capacity, Resources nodeUsage, Resources kubernetesUsed,
        NodeManagerIdentity.NodeManager nm, YarnFacts yarn, Decision decision, Resources currentBatch, Resources currentMid,
        InputFault fault, Report report, List<String> explain, Instant excessSince) {

    /** A Warning about the node: its Event reason and message. */
    public record Report(String reason, String message) {
    }

    /** A node whose grants stay as published this pass. */
    public static NodeWork frozen(String node, Node object, String cause, InputFault fault, Report report, Resources currentBatch,
            Resources currentMid) {
        return new NodeWork(node, object, cause, "frozen: " + cause, null, null, Resources.ZERO, false, Resources.ZERO, null,
                Resources.ZERO, null, null, null, currentBatch, currentMid, fault, report, List.of("frozen: " + cause), null);
    }

    /** What YARN uses on the node, zero without a NodeManager the broker knows. */
    public Resources yarnUsed() {
        return yarn == null ? Resources.ZERO : yarn.used();
    }
}
