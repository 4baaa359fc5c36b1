package io.colocation.scheduler.service;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/** {@code /healthz} (200 with the replica's role) and {@code /metrics} (Prometheus) of the scheduler service. */
public final class StatusServer implements AutoCloseable {
    private final SchedulerService service;
    private HttpServer server;

    public StatusServer(SchedulerService service) {
        this.service = service;
    }

    public InetSocketAddress start(String bindAddress, int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(bindAddress, port), 8);
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "k8s-scheduler-status");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/healthz", ex -> send(ex, "text/plain", service.leading() ? "ok: leader\n" : "ok: follower\n"));
        server.createContext("/metrics", ex -> {
            StringWriter w = new StringWriter();
            TextFormat.write004(w, service.registry().metricFamilySamples());
            send(ex, TextFormat.CONTENT_TYPE_004, w.toString());
        });
        server.start();
        return server.getAddress();
    }

    private static void send(HttpExchange ex, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop(0);
        }
    }
}
