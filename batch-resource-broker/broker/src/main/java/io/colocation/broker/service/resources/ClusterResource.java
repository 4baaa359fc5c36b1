package io.colocation.broker.service.resources;

import io.colocation.broker.ledger.Ledger;
import io.colocation.broker.yarn.LeaderEpoch;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/v1/cluster}: totals over every node's ledger. */
@Path("/api/v1/cluster")
@Produces(MediaType.APPLICATION_JSON)
public final class ClusterResource {
    private final Ledger ledger;
    private final LeaderEpoch leadership;
    private final String replicaId;
    private final String policy;

    public ClusterResource(Ledger ledger, LeaderEpoch leadership, String replicaId, String policy) {
        this.ledger = ledger;
        this.leadership = leadership;
        this.replicaId = replicaId;
        this.policy = policy;
    }

    @GET
    public ClusterTotals totals() {
        return ClusterTotals.of(ledger.all(), replicaId, leadership, policy);
    }
}
