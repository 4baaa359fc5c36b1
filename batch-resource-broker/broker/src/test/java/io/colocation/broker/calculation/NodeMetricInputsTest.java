package io.colocation.broker.calculation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.api.PriorityClass;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationConfigParser;
import io.colocation.model.slo.NodeMetric;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The broker's side of the NodeMetric the koordlet writes (KoordletOnApiServerTest checks the koordlet's side of the
 * same fields): YARN's containers come as the {@code hadoop-yarn} host application, batch, outside system usage, and
 * the calculation does not take them from Batch.
 */
class NodeMetricInputsTest {
    private static final long GI = 1L << 30;
    private static final Instant NOW = Instant.parse("2026-11-26T15:00:00Z");

    /** What the koordlet reported for a host: system 0.5 core, web-0 (prod) 2 cores, YARN's containers 1 core. */
    private static final String KOORDLET_REPORT = """
            {"apiVersion": "slo.koordinator.sh/v1alpha1", "kind": "NodeMetric", "metadata": {"name": "node-1"},
             "spec": {"metricCollectPolicy": {"aggregateDurationSeconds": 30, "reportIntervalSeconds": 1}},
             "status": {"updateTime": "2026-11-26T14:59:59Z",
               "nodeMetric": {"nodeUsage": {"resources": {"cpu": "3500m", "memory": "7Gi"}},
                              "systemUsage": {"resources": {"cpu": "500m", "memory": "1Gi"}}},
               "podsMetric": [{"namespace": "koordlet-api", "name": "web-0", "priority": "koord-prod", "qos": "LS",
                               "podUsage": {"resources": {"cpu": "2", "memory": "4Gi"}}}],
               "hostApplicationMetric": [{"name": "hadoop-yarn", "priority": "koord-batch", "qos": "BE",
                                          "usage": {"resources": {"cpu": "1", "memory": "2Gi"}}}]}}
            """;

    private static NodeMetric report() {
        return Serialization.unmarshal(KOORDLET_REPORT, NodeMetric.class);
    }

    @Test
    void yarnIsReadAsABatchHostApplicationApartFromSystemUsage() throws Exception {
        NodeMetricState state = NodeMetricInputs.read(report());
        assertEquals(Instant.parse("2026-11-26T14:59:59Z"), state.updateTime());
        assertEquals(new Resources(3500, 7 * GI), state.nodeUsage());
        assertEquals(new Resources(500, GI), state.systemUsage());
        assertEquals(List.of(new NodeMetricState.HostAppUsage("hadoop-yarn", new Resources(1000, 2 * GI), PriorityClass.BATCH)),
                state.hostApps());
    }

    @Test
    void batchFromTheKoordletsReportLeavesYarnsUseOut() throws Exception {
        Map<String, Quantity> capacity = Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"));
        Node node = new NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
                .withNewStatus().withCapacity(capacity).withAllocatable(capacity).endStatus().build();
        Pod web = new PodBuilder().withNewMetadata().withName("web-0").withNamespace("koordlet-api").endMetadata()
                .withNewSpec().withNodeName("node-1").addNewContainer().withName("app")
                .withNewResources().addToRequests(Map.of("cpu", new Quantity("4"), "memory", new Quantity("8Gi"))).endResources()
                .endContainer().endSpec().withNewStatus().withPhase("Running").withQosClass("Burstable").endStatus().build();
        NodeCalculation.Outcome outcome = NodeCalculation.calculate(ColocationConfigParser.parse("{\"enable\":true}", "test"), node,
                List.of(web), NodeCalculation.Metric.of(NodeMetricInputs.read(report())), NOW);
        // 8 cores − 40 % safety margin (3.2) − system 0.5 − prod usage 2 = 2.3; YARN's 1 core is not subtracted.
        assertEquals(2300L, outcome.reclaim().allocatable().get("kubernetes.io/batch-cpu"), String.join("\n", outcome.explain()));
        // 32 Gi − 35 % − system 1 Gi − prod usage 4 Gi; YARN's 2 Gi are not subtracted.
        assertEquals(32 * GI - 32 * GI * 35 / 100 - GI - 4 * GI, outcome.reclaim().allocatable().get("kubernetes.io/batch-memory"));
    }
}
