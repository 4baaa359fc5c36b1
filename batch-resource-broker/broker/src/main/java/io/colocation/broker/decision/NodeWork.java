package io.colocation.broker.decision;

import io.colocation.broker.arbitration.Decision;
import io.colocation.broker.calculation.NodeReclaim;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationStrategy;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Instant;
import java.util.List;

/**
 * Everything a pass decided for one node, before publication. {@code frozen} (with no basis, YARN facts or decision)
 * when the node's grants stay as they are this pass; {@code degradedReason} when its Batch is not from fresh, valid
 * inputs; {@code currentBatch}/{@code currentMid} what the node carries as far as this replica knows; {@code handover}
 * what the pass keeps for the next one and the Warning it raises.
 */
public record NodeWork(String node, Node object, String frozen, String degradedReason, Basis basis, YarnFacts yarn,
        Decision decision, Resources currentBatch, Resources currentMid, Handover handover, List<String> explain) {

    /**
     * What the decision stands on: the node's colocation strategy and Koordinator's reclaim, the origin both sides share
     * (zero when drained), the node's capacity and usage, what Kubernetes' batch pods hold, and its NodeManager (null:
     * none the broker knows).
     */
    public record Basis(ColocationStrategy strategy, NodeReclaim reclaim, Resources origin, boolean drained, Resources capacity,
            Resources nodeUsage, Resources kubernetesUsed, NodeManagerIdentity.NodeManager nm) {
    }

    /**
     * What the pass hands the next one: the node's input fault (null: none), the Warning to raise for it (null: nothing
     * to report), and since when its use has been above origin (null: it is not).
     */
    public record Handover(InputFault fault, Report report, Instant excessSince) {
    }

    /** A Warning about the node: its Event reason and message. */
    public record Report(String reason, String message) {
    }

    /** A node whose grants stay as published this pass. */
    public static NodeWork frozen(String node, Node object, String cause, InputFault fault, Report report, Resources currentBatch,
            Resources currentMid) {
        return new NodeWork(node, object, cause, "frozen: " + cause, null, null, null, currentBatch, currentMid,
                new Handover(fault, report, null), List.of("frozen: " + cause));
    }

    /** What YARN uses on the node, zero without a NodeManager the broker knows. */
    public Resources yarnUsed() {
        return yarn == null ? Resources.ZERO : yarn.used();
    }
}
