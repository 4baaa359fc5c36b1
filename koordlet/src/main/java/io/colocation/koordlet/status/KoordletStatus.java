package io.colocation.koordlet.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.colocation.helpers.lifecycle.Lifecycle;
import io.colocation.koordlet.Koordlet;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.Usage;
import io.colocation.koordlet.qos.agent.QoSManager;
import io.colocation.runtime.StatusServer;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The agent's own endpoint, on loopback by default (on the shared runtime's {@link StatusServer}: slow clients cannot
 * block it): {@code /livez} (200 while the agent's loops come round: samples fresh, periodic work done; a restart helps
 * otherwise), {@code /readyz} (also the API server answering and every watch connected), {@code /healthz} (the same as
 * {@code /readyz}, as before), {@code /status} (JSON: last sample, last report, problems, QoS, cgroup writes) and
 * {@code /metrics} (Prometheus text format).
 */
public final class KoordletStatus {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .registerModule(new JavaTimeModule()).disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private final Koordlet koordlet;
    private final QoSManager qos;
    private final CollectorRegistry registry = new CollectorRegistry();

    /** @param qos the QoS loop, null when it does not run (simulated hosts, qos.enabled false) */
    public KoordletStatus(Koordlet koordlet, QoSManager qos) {
        this.koordlet = koordlet;
        this.qos = qos;
        registry.register(new KoordletMetrics(koordlet));
    }

    /** The status server with every route; not started. */
    public StatusServer server() {
        return new StatusServer("koordlet-status")
                .route("/livez", StatusServer.probe(this::notLive))
                .route("/readyz", StatusServer.probe(this::notReady))
                .route("/healthz", StatusServer.probe(this::notReady))
                .route("/status", () -> StatusServer.Response.json(200, status()))
                .route("/metrics", () -> {
                    StringWriter w = new StringWriter();
                    TextFormat.write004(w, registry.metricFamilySamples());
                    return new StatusServer.Response(200, TextFormat.CONTENT_TYPE_004, w.toString().getBytes(StandardCharsets.UTF_8));
                });
    }

    /** Null while the agent's loops come round; else why not. */
    String notLive() {
        if (koordlet.state() != Lifecycle.State.STARTED) {
            return "koordlet is " + koordlet.state();
        }
        long age = koordlet.sampleAgeMillis();
        long limit = koordlet.collectInterval().toMillis() * 3 + 2000;
        if (age < 0 || age > limit) {
            return "no sample for " + (age < 0 ? "ever" : age + " ms");
        }
        long work = koordlet.workAgeMillis();
        if (work > Koordlet.WORK_STALL.toMillis()) {
            return "the agent's periodic work (report, prediction) has not come round for " + work + " ms";
        }
        return null;
    }

    /** Null while the agent can do its work; else why not. */
    String notReady() {
        String live = notLive();
        if (live != null) {
            return live;
        }
        String api = koordlet.apiServerProblem();
        if (api != null) {
            return api;
        }
        if (!koordlet.watching()) {
            return "not watching the API server (pods, Node, NodeMetric or NodeSLO)";
        }
        return null;
    }

    private String status() throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("node", koordlet.nodeName());
        root.put("state", koordlet.state().name());
        root.put("source", koordlet.sourceDescription());
        String reason = notReady();
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
        root.set("copilotRefusals", JSON.valueToTree(koordlet.copilotRefusals()));
        if (qos != null) {
            root.set("qos", qos());
        }
        return JSON.writeValueAsString(root);
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
}
