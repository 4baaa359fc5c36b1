package io.colocation.scheduler.service;

import io.colocation.runtime.StatusServer;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/**
 * The scheduler's status port: {@code /livez} (fails only when the leading loop is stuck: a restart helps),
 * {@code /readyz} (fails while it cannot work: listing, API server silent or not watched, the Lease out of reach),
 * {@code /healthz} (both, and the replica's role, for people) and {@code /metrics} (Prometheus).
 */
public final class SchedulerStatus {
    private SchedulerStatus() {
    }

    public static StatusServer of(SchedulerService service) {
        return new StatusServer("k8s-scheduler-status")
                .route("/livez", StatusServer.probe(service::notLive))
                .route("/readyz", StatusServer.probe(service::notReady))
                .route("/healthz", () -> {
                    String live = service.notLive();
                    String ready = service.notReady();
                    String why = live != null ? live : ready;
                    return why != null ? StatusServer.Response.text(503, why + "\n")
                            : StatusServer.Response.text(200, service.leading() ? "ok: leader\n" : "ok: follower\n");
                })
                .route("/metrics", () -> {
                    StringWriter w = new StringWriter();
                    TextFormat.write004(w, service.registry().metricFamilySamples());
                    return new StatusServer.Response(200, TextFormat.CONTENT_TYPE_004, w.toString().getBytes(StandardCharsets.UTF_8));
                });
    }
}
