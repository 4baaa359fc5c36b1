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
import jakarta.ws.rs.PathParam;
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

    public NodesResource(Ledger ledger, Leadership leadership, NodeDrain drain, Runnable resync) {
        this.ledger = ledger;
        this.leadership = leadership;
        this.drain = drain;
        this.resync = resync;
    }

    @GET
    @Path("/nodes")
    public Map<String, Object> nodes() {
        List<NodeLedger> nodes = ledger.all().stream().sorted(Comparator.comparing(NodeLedger::node)).toList();
        return Map.of("leader", leadership.fence().isPresent(), "items", nodes);
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
