package io.colocation.broker.ledger;

import io.colocation.model.Resources;
import java.time.Instant;
import java.util.List;

/**
 * One node's ledger after a broker pass: the arbitration promise's figures and what was published.
 * Batch CPU in milli-cores, memory in bytes (YARN's vcores and MiB converted).
 *
 * @param origin            reclaimable Batch (the calculation), 0 when degraded, disabled or drained
 * @param kubernetesUsed    batch requests of pods bound to the node
 * @param yarnUsed          YARN's allocation on the node's NodeManager
 * @param free              {@code origin - kubernetesUsed - yarnUsed} (negative: use beyond origin)
 * @param kubernetesGrant   Batch in the node's status (what the Kubernetes scheduler fits against)
 * @param yarnGrant         the node's YARN grant as published (vcores × 1000, MiB × 2^20)
 * @param yarnApplied       the capacity YARN confirmed applying, null if unknown
 * @param excess            use beyond origin, to be taken back (preemption, eviction)
 * @param overcommit        granted beyond origin (shared policy)
 * @param mid               Mid published to Kubernetes, null when absent
 * @param degraded          the node's Batch is not calculated from fresh, valid inputs
 * @param degradedReason    why (NodeMetric missing or stale, an input that cannot be read and whether the
 *                          node is frozen or its Batch removed), null when not degraded
 * @param yarn              the NodeManager, null when the node has none
 * @param explain           the calculation's and the arbitration's explanation, one line each
 */
public record NodeLedger(
        String node,
        String policy,
        Resources capacity,
        Resources nodeUsage,
        Resources origin,
        Resources kubernetesUsed,
        Resources yarnUsed,
        Resources free,
        Resources kubernetesTarget,
        Resources yarnTarget,
        Resources kubernetesGrant,
        Resources yarnGrant,
        Resources yarnApplied,
        Resources excess,
        Resources overcommit,
        Resources mid,
        boolean degraded,
        String degradedReason,
        boolean drained,
        YarnNode yarn,
        Publication lastKubernetesPublication,
        Publication lastYarnPublication,
        Instant computedAt,
        List<String> explain) {

    /** The NodeManager on the node and whether YARN's view of it is fresh. */
    public record YarnNode(String clusterId, String nodeId, String source, boolean reachable, Long grantEpoch, Long grantVersion,
            boolean acknowledged) {
    }

    /** One write to a side: when, what, and why (or the error that stopped it). */
    public record Publication(Instant at, Resources grant, String reason, String error) {
    }
}
