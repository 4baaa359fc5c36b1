package io.colocation.broker.service.health;

import io.colocation.broker.reconcile.PassStats;
import com.codahale.metrics.health.HealthCheckRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.broker.reconcile.BrokerReconciler;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The Kubernetes probes, answered from kept state within milliseconds. {@code /livez}: the process is
 * not wedged (its pass loop finished a pass recently); failing it restarts the pod, so a ZooKeeper or API
 * server outage never fails it. {@code /readyz}: every health check passes (a standby is ready: it serves
 * the ledger); 503 with the failing checks otherwise. As kube-apiserver's, {@code /readyz?exclude=NAME} leaves a check
 * out: the chart's probe leaves out ZooKeeper, YARN and the leadership, so a replica that serves admission and the
 * ledger stays behind its Services through their outages, and only such a replica is.
 */
public final class ProbeServlet extends HttpServlet {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final boolean liveness;
    private final transient HealthCheckRegistry checks;
    private final transient PassStats stats;
    private final Duration stallLimit;
    private final Instant startedAt = Instant.now();

    private ProbeServlet(boolean liveness, HealthCheckRegistry checks, PassStats stats, Duration stallLimit) {
        this.liveness = liveness;
        this.checks = checks;
        this.stats = stats;
        this.stallLimit = stallLimit;
    }

    public static ProbeServlet liveness(PassStats stats, Duration stallLimit) {
        return new ProbeServlet(true, null, stats, stallLimit);
    }

    public static ProbeServlet readiness(HealthCheckRegistry checks) {
        return new ProbeServlet(false, checks, null, null);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        boolean ok;
        if (liveness) {
            Instant last = stats.lastPassAt;
            Instant since = last == null ? startedAt : last;
            Duration quiet = Duration.between(since, Instant.now());
            ok = quiet.compareTo(stallLimit) <= 0;
            body.put("lastPassAt", last == null ? null : last.toString());
            body.put("message", ok ? "the pass loop is running" : "no pass finished for " + quiet.toSeconds() + " s (limit "
                    + stallLimit.toSeconds() + " s): the broker is stuck");
        } else {
            Map<String, Object> failing = new LinkedHashMap<>();
            String[] excluded = request.getParameterValues("exclude");
            Set<String> exclude = excluded == null ? Set.of() : new HashSet<>(Arrays.asList(excluded));
            checks.runHealthChecks().forEach((name, result) -> {
                if (!result.isHealthy() && !exclude.contains(name)) {
                    failing.put(name, result.getMessage());
                }
            });
            ok = failing.isEmpty();
            body.put("failing", failing);
        }
        body.put("status", ok ? "ok" : "failing");
        response.setStatus(ok ? HttpServletResponse.SC_OK : HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-store");
        JSON.writeValue(response.getOutputStream(), body);
    }
}
