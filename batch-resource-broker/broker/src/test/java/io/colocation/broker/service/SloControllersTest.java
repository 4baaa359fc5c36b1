package io.colocation.broker.service;

import io.colocation.broker.service.health.BrokerHealthChecks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import io.colocation.api.KoordinatorKeys;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeSLO;
import io.colocation.testsupport.Await;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The NodeMetric and NodeSLO controllers against a real API server: objects follow the nodes, the specs follow
 * the ConfigMap and the node labels within a round, a bad key keeps the last good NodeSLO and is reported on the
 * health check and as an Event on the ConfigMap.
 */
@ExtendWith({KubeApiServerExtension.class, ZooKeeperExtension.class})
class SloControllersTest {
    private static final String TEST = "slo";
    private static final String NS = "broker-slo";
    private static final Path NODESLO_CRD = Path.of("../../conf/kubernetes/crds/slo.koordinator.sh_nodeslos.yaml");
    private static int round;
    private Broker broker;
    private String node;

    @BeforeEach
    void start(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        round++;
        node = "slo-node-" + round;
        ColocationObjects.installNodeMetricCrd(client, KubeFixtures.CRD);
        ColocationObjects.installCrd(client, NODESLO_CRD, KoordinatorKeys.NODE_METRIC_API_VERSION, "NodeSLO");
        ColocationObjects.namespace(client, NS);
        config(client, "{\"enable\":true,\"metricReportIntervalSeconds\":20}",
                "{\"clusterStrategy\":{\"enable\":true,\"cpuSuppressThresholdPercent\":60}}");
        broker = new Broker(KubeFixtures.config(zk.connectString(), "/slo" + round, NS, "partitioned"), client, Clock.systemUTC());
        broker.start();
        assertTrue(broker.leadership().awaitLeadership(Duration.ofSeconds(20)));
    }

    @AfterEach
    void stop(KubernetesClient client) {
        broker.stop();
        ColocationObjects.cleanUp(client, TEST, NS);
    }

    private static void config(KubernetesClient client, String colocation, String threshold) {
        client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata()
                .withName(KoordinatorKeys.SLO_CONFIGMAP_NAME).withNamespace(NS).endMetadata()
                .addToData(KoordinatorKeys.COLOCATION_CONFIG_KEY, colocation)
                .addToData("resource-threshold-config", threshold).build()).createOr(op -> op.update());
    }

    private static NodeSLO slo(KubernetesClient client, String name) {
        return client.resources(NodeSLO.class).withName(name).get();
    }

    private static int suppress(KubernetesClient client, String name) {
        NodeSLO s = slo(client, name);
        return s == null || s.getSpec() == null || s.getSpec().resourceUsedThresholdWithBE() == null ? -1
                : s.getSpec().resourceUsedThresholdWithBE().path("cpuSuppressThresholdPercent").asInt(-1);
    }

    @Test
    void objectsFollowTheNodeAndSpecsFollowTheConfigMapAndLabels(KubernetesClient client) throws Exception {
        ColocationObjects.node(client, node, TEST, 8, 32);
        Await.until(Duration.ofSeconds(20), () -> client.resources(NodeMetric.class).withName(node).get() != null
                && suppress(client, node) == 60);
        NodeMetric metric = client.resources(NodeMetric.class).withName(node).get();
        assertEquals(new NodeMetric.CollectPolicy(300L, 20L, new NodeMetric.AggregatePolicy(List.of("5m0s", "10m0s", "30m0s")),
                "usageWithoutPageCache"), metric.getSpec().metricCollectPolicy());
        assertEquals("Node", metric.getMetadata().getOwnerReferences().get(0).getKind(), "owned by its node");
        NodeSLO slo = slo(client, node);
        assertEquals("none", slo.getSpec().cpuBurstStrategy().path("policy").asText(), "absent keys render their defaults");
        assertEquals("0", slo.getSpec().systemStrategy().path("totalNetworkBandwidth").asText());

        // The ConfigMap changes: both specs follow within a round.
        config(client, "{\"enable\":false,\"metricReportIntervalSeconds\":20}",
                "{\"clusterStrategy\":{\"enable\":true,\"cpuSuppressThresholdPercent\":55},"
                        + "\"nodeStrategies\":[{\"name\":\"big\",\"nodeSelector\":{\"matchLabels\":{\"size\":\"big\"}},\"cpuSuppressThresholdPercent\":75}]}");
        Await.until(Duration.ofSeconds(10), () -> suppress(client, node) == 55 && client.resources(NodeMetric.class).withName(node).get()
                .getSpec().metricCollectPolicy().reportIntervalSeconds() == 60);

        // A label puts the node under the node strategy.
        ColocationObjects.labelNode(client, node, "size", "big");
        Await.until(Duration.ofSeconds(10), () -> suppress(client, node) == 75);

        // The node goes: so do its NodeMetric and NodeSLO.
        client.nodes().withName(node).delete();
        Await.until(Duration.ofSeconds(10), () -> client.resources(NodeMetric.class).withName(node).get() == null
                && slo(client, node) == null);
    }

    @Test
    void aBadKeyKeepsTheLastGoodNodeSloAndIsReported(KubernetesClient client) throws Exception {
        ColocationObjects.node(client, node, TEST, 8, 32);
        Await.until(Duration.ofSeconds(20), () -> suppress(client, node) == 60);
        config(client, "{\"enable\":true}", "{\"clusterStrategy\":{\"cpuSuppressThresholdPercent\":\"high\"}}");
        Await.until(Duration.ofSeconds(10), () -> !broker.sloControllers().configErrors().isEmpty());
        Thread.sleep(500); // a few rounds
        assertEquals(60, suppress(client, node), "the last good value stays");

        HealthCheckRegistry registry = new HealthCheckRegistry();
        BrokerHealthChecks.register(registry, BrokerHealthChecks.Parts.of(broker), List.of());
        HealthCheck.Result result = registry.runHealthChecks().get("slo-config");
        assertTrue(result.getMessage().contains("resource-threshold-config: clusterStrategy.cpuSuppressThresholdPercent=\"high\""
                + " must be an integer"), result.getMessage());
        Await.until(Duration.ofSeconds(10), () -> client.v1().events().inNamespace(NS).list().getItems().stream()
                .anyMatch(e -> "SLOCfgUnmarshalFailed".equals(e.getReason()) && "ConfigMap".equals(e.getInvolvedObject().getKind())
                        && e.getMessage().contains("cpuSuppressThresholdPercent")));

        config(client, "{\"enable\":true}", "{\"clusterStrategy\":{\"cpuSuppressThresholdPercent\":50}}");
        Await.until(Duration.ofSeconds(10), () -> suppress(client, node) == 50 && broker.sloControllers().configErrors().isEmpty());
        assertEquals(Map.of(), broker.sloControllers().configErrors());
    }
}
