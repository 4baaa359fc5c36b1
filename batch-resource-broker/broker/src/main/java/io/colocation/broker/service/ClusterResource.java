package io.colocation.broker.service;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/v1/cluster}: totals over every node's ledger. */
@Path("/api/v1/cluster")
@Produces(MediaType.APPLICATION_JSON)
public final class ClusterResource {
    private final Broker broker;

    public ClusterResource(Broker broker) {
        this.broker = broker;
    }

    @GET
    public ClusterTotals totals() {
        return ClusterTotals.of(broker, broker.ledger().all());
    }
}
