package io.colocation.broker.arbitration;

import io.colocation.model.Resources;

/**
 * One arbitration round for one node.
 *
 * @param kubernetesTarget where the Kubernetes grant is heading
 * @param yarnTarget       where the YARN grant is heading
 * @param kubernetesPublish what to publish to Kubernetes now (a grow waits for the other side's shrink)
 * @param yarnPublish       what to publish to YARN now
 * @param excess           used beyond origin, to be taken back (preemption, eviction); zero normally
 * @param overcommit       granted beyond origin ({@code shared} policy only; always zero when partitioned)
 * @param yarnKeep         what YARN keeps above its grant: the RM plugin preempts only above {@code max(grant, keep)};
 *                         its use while use above origin is not (yet) taken back, else zero
 */
public record Decision(Resources kubernetesTarget, Resources yarnTarget, Resources kubernetesPublish,
        Resources yarnPublish, Resources excess, Resources overcommit, String explanation, Resources yarnKeep) {

    /** A decision where YARN keeps nothing above its grant. */
    public Decision(Resources kubernetesTarget, Resources yarnTarget, Resources kubernetesPublish, Resources yarnPublish,
            Resources excess, Resources overcommit, String explanation) {
        this(kubernetesTarget, yarnTarget, kubernetesPublish, yarnPublish, excess, overcommit, explanation, Resources.ZERO);
    }
}
