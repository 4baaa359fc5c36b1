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
 */
public record Decision(Resources kubernetesTarget, Resources yarnTarget, Resources kubernetesPublish,
        Resources yarnPublish, Resources excess, Resources overcommit, String explanation) {
}
