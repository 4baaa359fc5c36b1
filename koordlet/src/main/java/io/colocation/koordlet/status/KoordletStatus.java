package io.colocation.koordlet.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.colocation.koordlet.Koordlet;
import io.colocation.koordlet.qos.agent.QoSManager;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.Usage;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The agent's own endpoint, on loopback by default: {@code /healthz} (200 while samples are fresh and the
 * watches connected, else 503 with the reason), {@code /status} (JSON: last sample, last report, problems) and
 * {@code /metrics} (Prometheus text format).
 */
public final class StatusServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Koordlet koordlet;
    private final QoSManager qos;
    private final CollectorRegistry registry = new CollectorRegistry();
    private HttpServer server;
    private ExecutorService executor;

    /** @param qos the QoS loop, null when it does not run (simulated hosts, qos.enabled false) */
    public StatusServer(Koordlet koordlet, QoSManager qos) {
        this.koordlet = koordlet;
        this.qos = qos;
        registry.register(new KoordletMetrics(koordlet));
    }

    public InetSocketAddress start(String bindAddress, int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(bindAddress, port), 8);
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "koordlet-status");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/healthz", this::health);
        server.createContext("/status", this::status);
        server.createContext("/metrics", this::metrics);
        server.start();
        return server.getAddress();
    }

    /** Null when healthy, else why not. */
    String unhealthyReason() {
        if (koordlet.state() != Koordlet.State.STARTED) {
            return "koordlet is " + koordlet.state();
        }
        long age = koordlet.sampleAgeMillis();
        long limit = koordlet.collectInterval().toMillis() * 3 + 2000;
        if (age < 0 || age > limit) {
            return "no sample for " + (age < 0 ? "ever" : age + " ms");
        }
        if (!koordlet.watching()) {
            return "not watching the API server (pods, Node, NodeMetric or NodeSLO)";
        }
        return null;
    }

    private void health(HttpExchange ex) throws IOException {
        String reason = unhealthyReason();
        send(ex, reason == null ? 200 : 503, "text/plain", reason == null ? "ok\n" : reason + "\n");
    }

    private void status(HttpExchange ex) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("node", koordlet.nodeName());
        root.put("state", koordlet.state().name());
        root.put("source", koordlet.sourceDescription());
        String reason = unhealthyReason();
        root.put("healthy", reason == null);
        if (reason != null) {
            root.put("unhealthyReason", reason);
        }
        HostSample s = koordlet.cache().last();
        if (s != null) {
            ObjectNode sample = root.putObject("lastSample");
            sample.put("time", Instant.ofEpochMilli(s.timeMillis()).toString());
            sample.put("collectMillis", koordlet.lastCollectDurationNanos() / 1e6);
            usage(sample.putObject("node"), s.node());
            usage(sample.putObject("system"), s.system());
            ObjectNode yarn = sample.putObject("yarn");
            usage(yarn, s.yarn());
            yarn.put("containers", s.yarnContainers().size());
            sample.put("podsMeasured", s.pods().size());
            sample.put("hostApplicationsMeasured", s.hostApps().size());
            ObjectNode psi = sample.putObject("pressureAvg10");
            put(psi, "cpuSome", s.pressure().cpuSome());
            put(psi, "memorySome", s.pressure().memorySome());
            put(psi, "memoryFull", s.pressure().memoryFull());
            put(psi, "ioSome", s.pressure().ioSome());
            put(psi, "ioFull", s.pressure().ioFull());
        }
        Koordlet.LastReport r = koordlet.lastReport();
        if (r != null) {
            ObjectNode report = root.putObject("lastReport");
            report.put("time", r.time().toString());
            report.put("outcome", r.outcome().name());
            report.put("intervalSeconds", r.interval().getSeconds());
            report.set("status", JSON.valueToTree(r.status()));
        }
        ObjectNode prediction = root.putObject("prediction");
        prediction.put("models", koordlet.predictionModels());
        koordlet.prediction().ifPresent(p -> prediction.set("prod", JSON.valueToTree(p)));
        root.set("problems", JSON.valueToTree(koordlet.problems()));
        if (qos != null) {
            root.set("qos", qos());
        }
        send(ex, 200, "application/json", JSON.writeValueAsString(root));
    }

    /** The last QoS round (CPU suppress as written, eviction decisions) and the recent cgroup writes. */
    private ObjectNode qos() {
        ObjectNode n = JSON.createObjectNode();
        QoSManager.Round r = qos.last();
        if (r != null) {
            n.put("time", r.time().toString());
            n.put("enforced", r.enforced());
            ObjectNode cpu = n.putObject("cpuSuppress");
            cpu.put("enabled", r.cpuSuppress().enabled());
            cpu.put("policy", r.cpuSuppress().policy());
            cpu.put("beMilliCPU", r.cpuSuppress().beMilliCpu());
            cpu.set("cpusetCPUs", JSON.valueToTree(r.cpuSuppress().cpusetCpus()));
            cpu.put("cfsQuotaMicros", r.cpuSuppress().cfsQuotaMicros());
            cpu.set("explain", JSON.valueToTree(r.cpuSuppress().explain()));
            ObjectNode high = n.putObject("memoryHigh");
            high.put("enabled", r.memoryHigh().enabled());
            if (r.memoryHigh().highBytes() != null) {
                high.put("bytes", r.memoryHigh().highBytes());
            }
            high.set("explain", JSON.valueToTree(r.memoryHigh().explain()));
            for (var e : java.util.Map.of("memoryEvict", r.memoryEvict(), "memoryPressureEvict", r.memoryPressureEvict(),
                    "cpuEvict", r.cpuEvict()).entrySet()) {
                ObjectNode area = n.putObject(e.getKey());
                area.set("strategies", JSON.valueToTree(e.getValue().strategies().keySet()));
                area.set("victims", JSON.valueToTree(e.getValue().victims().stream().map(v -> v.toJson()).toList()));
                area.set("explain", JSON.valueToTree(e.getValue().explain()));
            }
            n.set("evictions", JSON.valueToTree(r.evictions().stream().map(e -> java.util.Map.of("time", e.time().toString(),
                    "victim", e.victim().toJson(), "area", e.area(), "strategy", e.strategy(),
                    "outcome", e.failure() == null ? "evicted" : e.failure())).toList()));
        }
        n.set("evictionCounts", JSON.valueToTree(qos.evictionCounts()));
        n.set("cgroupWrites", JSON.valueToTree(qos.writes()));
        return n;
    }

    private static void usage(ObjectNode n, Usage u) {
        put(n, "cpuCores", u.cpuCores());
        if (u.hasMemory()) {
            n.put("memoryBytes", u.memoryBytes());
        }
    }

    private static void put(ObjectNode n, String field, double v) {
        if (!Double.isNaN(v)) {
            n.put(field, v);
        }
    }

    private void metrics(HttpExchange ex) throws IOException {
        StringWriter w = new StringWriter();
        TextFormat.write004(w, registry.metricFamilySamples());
        send(ex, 200, TextFormat.CONTENT_TYPE_004, w.toString());
    }

    private static void send(HttpExchange ex, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop(0);
            executor.shutdownNow();
        }
    }
}
