package io.colocation.broker.publication;

import io.colocation.broker.kube.BatchPublication;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.model.Resources;

/**
 * What one node's publication is to write this pass, step by step, in the order {@link PublicationExecutor} carries it
 * out: Kubernetes' share (Batch and Mid in the node's status, with the origin annotation), then the origin annotation
 * alone when YARN's grant must not outgrow what it shows and the share did not write it, then YARN's grant and keep.
 * Each step is null when nothing is to be written. Decided by {@link PublicationPlanner}; no I/O.
 *
 * @param kubernetes Kubernetes' share, when Koordinator's publication thresholds call for a write
 * @param origin     the origin annotation, to write unless {@code kubernetes} was written (it carries the origin)
 * @param yarn       YARN's grant, when it or what it keeps differs from the grant in force
 */
public record PublicationPlan(KubernetesShare kubernetes, OriginCover origin, YarnGrantStep yarn) {
    public static final PublicationPlan NOTHING = new PublicationPlan(null, null, null);

    /**
     * Batch and Mid for the node's status, and the origin annotation with them.
     *
     * @param reason      which publication threshold called for the write
     * @param shrinksFrom when the write shrinks the Batch grant, the grant it shrinks from (merged with a shrink still
     *                    settling): YARN may not grow into the difference until the shrink has settled; else null
     */
    public record KubernetesShare(BatchPublication publication, String reason, Resources shrinksFrom) {
    }

    /** The origin annotation alone (the node's status thresholds may have left it behind what YARN's grow needs). */
    public record OriginCover(BatchPublication publication) {
    }

    /**
     * YARN's grant in whole vcores and MiB, and what it keeps from preemption.
     *
     * @param needsOrigin whether the grant may be written only once the origin annotation covers it (written by this
     *                    plan's share or its origin step): when neither landed the grant waits for the next pass
     */
    public record YarnGrantStep(String clusterId, String nodeId, YarnSide.Usage grant, YarnSide.Usage keep, String reason,
            boolean needsOrigin) {
    }
}
