package io.colocation.broker.service.resources;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code GET /api/v1/health}: every connection's health check (the admin port's, for the console on this port). */
@Path("/api/v1/health")
@Produces(MediaType.APPLICATION_JSON)
public final class HealthResource {
    private final HealthCheckRegistry checks;

    public HealthResource(HealthCheckRegistry checks) {
        this.checks = checks;
    }

    @GET
    public Map<String, Map<String, Object>> health() {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        for (Map.Entry<String, HealthCheck.Result> e : checks.runHealthChecks().entrySet()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("healthy", e.getValue().isHealthy());
            // healthy but not fine: a refused key, a node with bad inputs; the console shows it as a warning
            r.put("warning", e.getValue().isHealthy() && e.getValue().getDetails() != null
                    && Boolean.TRUE.equals(e.getValue().getDetails().get("warning")));
            r.put("message", e.getValue().getMessage());
            out.put(e.getKey(), r);
        }
        return out;
    }
}
