package io.colocation.broker.service.resources;

import io.colocation.broker.service.tasks.NodeDrain;

import io.colocation.broker.ledger.Ledger;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.broker.yarn.Leadership;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** The ledger of every node ({@code /api/v1/nodes}) and the drain action. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public final class NodesResource {
    private final Ledger ledger;
    private final Leadership leadership;
    private final NodeDrain drain;
    private final Runnable resync;
    private final java.time.Clock clock;

    public NodesResource(Ledger ledger, Leadership leadership, NodeDrain drain, Runnable resync, java.time.Clock clock) {
        this.ledger = ledger;
        this.leadership = leadership;
        this.drain = drain;
        this.resync = resync;
        this.clock = clock;
    }

    /**
     * Every node's ledger, by name; {@code filter} keeps names containing it, {@code state} those {@code ok},
     * {@code degraded} or {@code drained}; {@code offset}/{@code limit} page what is left (a console at 1,000s of nodes).
     * {@code total} counts the nodes that passed the filters; {@code now} is the broker's clock, which the ledger's
     * times are on (a simulation's runs ahead of the wall).
     */
    @GET
    @Path("/nodes")
    public Map<String, Object> nodes(@QueryParam("filter") String filter, @QueryParam("state") String state,
            @QueryParam("offset") @DefaultValue("0") int offset, @QueryParam("limit") @DefaultValue("-1") int limit) {
        if (state != null && !state.isEmpty() && !List.of("ok", "degraded", "drained").contains(state)) {
            throw new WebApplicationException("state must be ok, degraded or drained, not '" + state + "'", 400);
        }
        if (offset < 0) {
            throw new WebApplicationException("offset must be 0 or more, not " + offset, 400);
        }
        List<NodeLedger> nodes = ledger.all().stream()
                .filter(n -> filter == null || n.node().contains(filter))
                .filter(n -> state == null || state.isEmpty() || state.equals(state(n)))
                .sorted(Comparator.comparing(NodeLedger::node)).toList();
        int from = Math.min(offset, nodes.size());
        int to = limit < 0 ? nodes.size() : Math.min(nodes.size(), from + limit);
        return Map.of("leader", leadership.fence().isPresent(), "now", clock.instant().toString(), "total", nodes.size(),
                "items", nodes.subList(from, to));
    }

    private static String state(NodeLedger n) {
        return n.drained() ? "drained" : n.degraded() ? "degraded" : "ok";
    }

    @GET
    @Path("/nodes/{name}")
    public NodeLedger node(@PathParam("name") String name) {
        return ledger.get(name).orElseThrow(() -> new NotFoundException("no node " + name + " in the ledger"
                + " (the broker has not seen such a Node, or has not completed a pass since it appeared)"));
    }

    @POST
    @Path("/nodes/{name}/drain")
    public Map<String, Object> drain(@PathParam("name") String name) {
        return setDrain(name, true);
    }

    @DELETE
    @Path("/nodes/{name}/drain")
    public Map<String, Object> undrain(@PathParam("name") String name) {
        return setDrain(name, false);
    }

    private Map<String, Object> setDrain(String name, boolean drained) {
        try {
            drain.set(name, drained);
        } catch (NodeDrain.Failure e) {
            // Dropwizard answers a WebApplicationException with {"code": ..., "message": ...}.
            throw new WebApplicationException(e.getMessage(), e.status());
        }
        return Map.of("node", name, "drained", drained);
    }

    @POST
    @Path("/resync")
    public Map<String, Object> resync() {
        resync.run();
        return Map.of("resync", "requested");
    }
}
