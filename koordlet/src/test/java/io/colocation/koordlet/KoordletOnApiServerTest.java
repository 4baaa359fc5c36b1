package io.colocation.koordlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.broker.calculation.NodeCalculation;
import io.colocation.broker.calculation.NodeMetricInputs;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.collect.Usage;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.kube.client.Patches;
import io.colocation.model.config.ColocationConfigParser;
import io.colocation.model.slo.NodeMetric;
import io.colocation.testsupport.Await;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The koordlet against a real API server, on a simulated host with a constant load: the NodeMetric status it
 * writes carries the figures it collected, a changed {@code reportIntervalSeconds} takes effect, and the
 * broker's calculation turns the report into Batch with YARN not counted as system usage.
 */
@ExtendWith(KubeApiServerExtension.class)
class KoordletOnApiServerTest {
    private static final String OWNER = "koordlet-api";
    private static final String NS = "koordlet-api";
    private static final String NODE = "koordlet-node-1";
    private static final long GI = 1L << 30;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;
    private static KoordletAssembly.Running koordlet;

    @BeforeAll
    static void start(KubernetesClient client, KubeApiServer api) throws Exception {
        ColocationObjects.installNodeMetricCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml"));
        ColocationObjects.installCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodeslos.yaml"),
                "slo.koordinator.sh/v1alpha1", "NodeSLO");
        ColocationObjects.namespace(client, NS);
        ColocationObjects.node(client, NODE, OWNER, 8, 32);
        NodeMetric nm = new NodeMetric();
        nm.setMetadata(new ObjectMetaBuilder().withName(NODE).addToLabels(ColocationObjects.OWNER_LABEL, OWNER).build());
        nm.setSpec(new NodeMetric.Spec(new NodeMetric.CollectPolicy(30L, 1L, new NodeMetric.AggregatePolicy(List.of("2s")),
                "usageWithoutPageCache")));
        client.resources(NodeMetric.class).resource(nm).create();
        runningPod(client, "web-0", "4", "8Gi");

        KoordletConfig config = new KoordletConfig();
        config.nodeName = NODE;
        config.kubernetes.kubeconfig = api.kubeconfig().toString();
        config.yarn.copilotUrl = "";
        config.status.port = 0;
        config.prediction.checkpointDir = tmp.resolve("checkpoints").toString();
        koordlet = start(config);
    }

    /**
     * The agent on a host where the system uses 500m and 1Gi, the pod web-0 2 cores and 4Gi, and one YARN container 1
     * core and 2Gi; it leaves this host's cgroups alone.
     */
    private static KoordletAssembly.Running start(KoordletConfig config) throws KoordletAssembly.StartException {
        SteadyUsageSource host = new SteadyUsageSource(new Usage(0.5, GI), Map.of(NS + "/web-0", new Usage(2, 4 * GI)),
                Map.of("container_1_0001_01_000002", new Usage(1, 2 * GI)));
        return KoordletAssembly.start(config, host, CgroupLayout.detect(config.cgroupRoot(), config.host.cgroupVersion, config.host.cgroupDriver), false, Clock.systemUTC());
    }

    private static void runningPod(KubernetesClient client, String name, String cpu, String memory) {
        Pod pod = client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
                .withNewSpec().withNodeName(NODE).addNewContainer().withName("app").withImage("app")
                .withNewResources().addToRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory))).endResources()
                .endContainer().endSpec().build()).create();
        pod.getStatus().setPhase("Running");
        pod.getStatus().setQosClass("Burstable");
        client.pods().inNamespace(NS).resource(pod).updateStatus();
    }

    @AfterAll
    static void stop(KubernetesClient client) {
        if (koordlet != null) {
            koordlet.close();
        }
        ColocationObjects.cleanUp(client, OWNER, NS);
    }

    /** The status as written, read on its own: the spec may be broken on purpose. */
    private static NodeMetric.Status reported(KubernetesClient client) {
        var nm = client.genericKubernetesResources("slo.koordinator.sh/v1alpha1", "NodeMetric").withName(NODE).get();
        Object status = nm == null ? null : nm.getAdditionalProperties().get("status");
        try {
            return status == null ? null : io.colocation.model.TypedObjects.decode(status, NodeMetric.Status.class, "NodeMetric status");
        } catch (io.colocation.api.InvalidInputException e) {
            return null; // broken on purpose, not rewritten yet
        }
    }

    @Test
    void reportsWhatItCollectedAndTheBrokerComputesBatchFromIt(KubernetesClient client) throws Exception {
        Await.until(Duration.ofSeconds(30), () -> {
            NodeMetric.Status s = reported(client);
            return s != null && s.podsMetric() != null && !s.podsMetric().isEmpty() && s.hostApplicationMetric() != null
                    && s.nodeMetric().aggregatedNodeUsages() != null;
        });
        NodeMetric.Status s = reported(client);
        assertEquals(new Quantity("3500m"), s.nodeMetric().nodeUsage().resources().get("cpu"));
        assertEquals(7 * GI, Quantity.getAmountInBytes(s.nodeMetric().nodeUsage().resources().get("memory")).longValueExact());
        assertEquals(new Quantity("500m"), s.nodeMetric().systemUsage().resources().get("cpu"), "YARN is not system usage");
        NodeMetric.PodMetricInfo pod = s.podsMetric().get(0);
        assertEquals("web-0", pod.name());
        assertEquals("koord-prod", pod.priority());
        assertEquals("LS", pod.qos());
        assertEquals(new Quantity("2"), pod.podUsage().resources().get("cpu"));
        NodeMetric.HostApplicationMetricInfo yarn = s.hostApplicationMetric().get(0);
        assertEquals("hadoop-yarn", yarn.name());
        assertEquals("koord-batch", yarn.priority());
        assertEquals("BE", yarn.qos());
        assertEquals(new Quantity("1"), yarn.usage().resources().get("cpu"));
        assertEquals(2 * GI, Quantity.getAmountInBytes(yarn.usage().resources().get("memory")).longValueExact());
        assertEquals("2s", s.nodeMetric().aggregatedNodeUsages().get(0).duration());
        assertNotNull(s.nodeMetric().aggregatedNodeUsages().get(0).usage().get("p99"));

        // The broker's own calculation on the objects as the API server has them.
        NodeMetric nm = client.resources(NodeMetric.class).withName(NODE).get();
        NodeCalculation.Outcome outcome = NodeCalculation.calculate(ColocationConfigParser.parse("{\"enable\":true}", "test"),
                client.nodes().withName(NODE).get(), client.pods().inNamespace(NS).list().getItems(),
                NodeCalculation.Metric.of(NodeMetricInputs.read(nm)), Instant.now());
        // 8 cores − 40 % safety margin (3.2) − system 0.5 − prod usage 2 = 2.3; YARN's 1 core is not subtracted.
        assertEquals(2300L, outcome.reclaim().allocatable().get("kubernetes.io/batch-cpu"), String.join("\n", outcome.explain()));
        assertEquals(32 * GI - 32 * GI * 35 / 100 - GI - 4 * GI, outcome.reclaim().allocatable().get("kubernetes.io/batch-memory"));

        HttpResponse<String> status = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + koordlet.statusAddress().getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(status.body().contains("koordlet_yarn_cpu_usage_cores 1.0"), status.body());
        assertTrue(status.body().contains("koordlet_pod_cpu_usage_cores{namespace=\"koordlet-api\",pod=\"web-0\",} 2.0"), status.body());
    }

    @Test
    void aChangedReportIntervalTakesEffect(KubernetesClient client) throws Exception {
        Await.until(Duration.ofSeconds(30), () -> reported(client) != null);
        assertTrue(gapBetweenReports(client) <= 2, "reports every second");
        writeSpec(client, collectPolicy(3));
        Await.until(Duration.ofSeconds(10), () -> koordlet.koordlet().lastReport().interval().getSeconds() == 3);
        long gap = gapBetweenReports(client);
        assertTrue(gap >= 3 && gap <= 5, "reports every 3 s now, gap " + gap);
        writeSpec(client, collectPolicy(1));
    }

    private static Map<String, Object> collectPolicy(int reportIntervalSeconds) {
        return Map.of("metricCollectPolicy", Map.of("aggregateDurationSeconds", 30, "reportIntervalSeconds", reportIntervalSeconds,
                "nodeAggregatePolicy", Map.of("durations", List.of("2s")), "nodeMemoryCollectPolicy", "usageWithoutPageCache"));
    }

    /**
     * Replaces the NodeMetric's spec as the broker does (a JSON patch of /spec, no resourceVersion): the agent
     * reports the status every second meanwhile, so a write over an earlier read would conflict.
     */
    private static void writeSpec(KubernetesClient client, Map<String, Object> spec) throws Exception {
        Patches.json(client, stub(), JSON.writeValueAsString(List.of(Map.of("op", "add", "path", "/spec", "value", spec))));
    }

    private static GenericKubernetesResource stub() {
        return new GenericKubernetesResourceBuilder().withApiVersion("slo.koordinator.sh/v1alpha1").withKind("NodeMetric")
                .withNewMetadata().withName(NODE).endMetadata().build();
    }

    /**
     * A NodeMetric whose spec has a wrongly typed field (the CRD's schema accepts it) is named, read as the defaults,
     * and never stops the agent: its watch goes on, it still reports (replacing a broken status too), stays ready, and
     * a second agent starts while the object exists.
     */
    @Test
    void aNodeMetricWithAWronglyTypedFieldIsNamedAndNeverStopsTheAgent(KubernetesClient client, KubeApiServer api) throws Exception {
        Await.until(Duration.ofSeconds(30), () -> reported(client) != null);
        writeSpec(client, Map.of("metricCollectPolicy", Map.of("reportIntervalSeconds", "abc")));
        Patches.mergeStatus(client, stub(), JSON.writeValueAsString(Map.of("status", Map.of("podsMetric", "garbage"))));
        Await.until(Duration.ofSeconds(15), () -> koordlet.koordlet().problems().keySet().stream()
                .anyMatch(k -> k.equals("NodeMetric " + NODE)));
        assertTrue(koordlet.koordlet().problems().get("NodeMetric " + NODE).contains("reportIntervalSeconds"),
                koordlet.koordlet().problems().toString());
        Instant before = Instant.now();
        Await.until(Duration.ofSeconds(15), () -> {
            NodeMetric.Status s = reported(client);
            return s != null && s.updateTime() != null && !Instant.parse(s.updateTime()).isBefore(before.minusSeconds(1))
                    && s.podsMetric() != null;
        });
        assertTrue(koordlet.koordlet().watching());
        HttpResponse<String> ready = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + koordlet.statusAddress().getPort() + "/readyz")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ready.statusCode(), ready.body());
        HttpResponse<String> status = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + koordlet.statusAddress().getPort() + "/status")).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(status.body().contains("\"lastReport\"") && status.body().contains("reportIntervalSeconds"), status.body());

        KoordletConfig second = new KoordletConfig();
        second.nodeName = NODE;
        second.kubernetes.kubeconfig = api.kubeconfig().toString();
        second.yarn.copilotUrl = "";
        second.status.port = 0;
        second.prediction.checkpointDir = tmp.resolve("checkpoints-2").toString();
        try (KoordletAssembly.Running other = start(second)) {
            assertTrue(other.koordlet().watching(), "a second agent starts while the broken object exists");
        }

        writeSpec(client, collectPolicy(1));
        Await.until(Duration.ofSeconds(15), () -> !koordlet.koordlet().problems().containsKey("NodeMetric " + NODE));
    }

    @Test
    void aRefusedApiServerIsOneLineNamingIt() throws Exception {
        KoordletConfig config = new KoordletConfig();
        config.nodeName = NODE;
        config.kubernetes.masterUrl = "https://127.0.0.1:1";
        config.kubernetes.startupTimeoutSeconds = 10;
        config.yarn.copilotUrl = "";
        config.status.port = 0;
        config.prediction.checkpointDir = tmp.resolve("checkpoints-3").toString();
        KoordletAssembly.StartException e = org.junit.jupiter.api.Assertions.assertThrows(KoordletAssembly.StartException.class,
                () -> start(config));
        assertTrue(e.getMessage().startsWith("API server https://127.0.0.1:1") && e.getMessage().contains("connection refused")
                && !e.getMessage().endsWith("null"), e.getMessage());
    }

    /** Seconds between two consecutive updateTimes the koordlet wrote. */
    private static long gapBetweenReports(KubernetesClient client) throws Exception {
        Instant first = Instant.parse(reported(client).updateTime());
        Instant[] changed = new Instant[2];
        Await.until(Duration.ofSeconds(15), () -> {
            Instant t = Instant.parse(reported(client).updateTime());
            if (changed[0] == null && t.isAfter(first)) {
                changed[0] = t;
            } else if (changed[0] != null && t.isAfter(changed[0])) {
                changed[1] = t;
            }
            return changed[1] != null;
        });
        return Duration.between(changed[0], changed[1]).getSeconds();
    }
}
