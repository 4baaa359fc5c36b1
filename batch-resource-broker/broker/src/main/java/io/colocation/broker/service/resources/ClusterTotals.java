package io.colocation.broker.service.resources;

import io.colocation.model.Resources;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.broker.yarn.LeaderEpoch;
import java.util.Collection;

/**
 * The cluster's sums over the ledger ({@code GET /api/v1/cluster}). {@code overcommit} is granted beyond
 * origin (shared policy); {@code excess} is use beyond origin, to be taken back.
 */
public record ClusterTotals(String replica, String leader, Long epoch, String policy, int nodes, int degradedNodes,
        int drainedNodes, Resources capacity, Resources onlineUsage, Resources origin, Side kubernetes, Side yarn,
        Resources free, Resources excess, Resources overcommit) {

    public record Side(Resources granted, Resources used) {
    }

    static ClusterTotals of(Collection<NodeLedger> ledger, String replicaId, LeaderEpoch leadership, String policy) {
        Resources capacity = Resources.ZERO;
        Resources usage = Resources.ZERO;
        Resources origin = Resources.ZERO;
        Resources kGrant = Resources.ZERO;
        Resources kUsed = Resources.ZERO;
        Resources yGrant = Resources.ZERO;
        Resources yUsed = Resources.ZERO;
        Resources excess = Resources.ZERO;
        Resources overcommit = Resources.ZERO;
        int degraded = 0;
        int drained = 0;
        for (NodeLedger n : ledger) {
            capacity = capacity.plus(n.capacity());
            if (n.nodeUsage() != null) {
                usage = usage.plus(n.nodeUsage());
            }
            origin = origin.plus(n.origin());
            kGrant = kGrant.plus(n.kubernetesGrant());
            kUsed = kUsed.plus(n.kubernetesUsed());
            yGrant = yGrant.plus(n.yarnGrant());
            yUsed = yUsed.plus(n.yarnUsed());
            excess = excess.plus(n.excess());
            overcommit = overcommit.plus(n.overcommit());
            degraded += n.degraded() ? 1 : 0;
            drained += n.drained() ? 1 : 0;
        }
        Long epoch = leadership.fence().map(f -> f.epoch()).orElse(null);
        return new ClusterTotals(replicaId, leadership.leaderId().orElse(null), epoch, policy,
                ledger.size(), degraded, drained, capacity, usage, origin, new Side(kGrant, kUsed), new Side(yGrant, yUsed),
                origin.minus(kUsed).minus(yUsed), excess, overcommit);
    }
}
