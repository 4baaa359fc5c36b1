package io.colocation.broker.slo;

import io.colocation.model.slo.NodeMetricSpecs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.model.config.ColocationConfigParser;
import io.colocation.model.config.ColocationStrategy;
import io.colocation.model.config.SloConfigKey;
import io.colocation.model.config.SloConfigParser;
import io.colocation.model.config.SloStrategies;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure decisions of the NodeMetric and NodeSLO controllers, table by table. */
class NodeSpecsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void collectPolicyFollowsTheMergedStrategyOnlyWhenColocationIsEnabled() throws Exception {
        NodeMetric.Spec defaults = new NodeMetric.Spec(new NodeMetric.CollectPolicy(300L, 60L,
                new NodeMetric.AggregatePolicy(List.of("5m0s", "10m0s", "30m0s")), "usageWithoutPageCache"));
        assertEquals(defaults, NodeMetricSpecs.forStrategy(ColocationStrategy.defaults()));
        ColocationStrategy disabled = ColocationConfigParser.parse("{\"enable\":false,\"metricReportIntervalSeconds\":10}", "t").cluster();
        assertEquals(defaults, NodeMetricSpecs.forStrategy(disabled), "disabled: the user's values are ignored");
        ColocationStrategy enabled = ColocationConfigParser.parse("{\"enable\":true,\"metricReportIntervalSeconds\":10,"
                + "\"metricAggregatePolicy\":{\"durations\":[\"1h\",\"90s\"]},\"metricMemoryCollectPolicy\":\"usageWithPageCache\"}", "t").cluster();
        assertEquals(new NodeMetric.Spec(new NodeMetric.CollectPolicy(300L, 10L,
                new NodeMetric.AggregatePolicy(List.of("1h0m0s", "1m30s")), "usageWithPageCache")), NodeMetricSpecs.forStrategy(enabled));
    }

    @Test
    void nodeSloTakesTheFirstMatchingStrategyPerKeyAndKeepsWhatABrokenKeyCannotSay() throws Exception {
        SloStrategies threshold = SloConfigParser.parse(SloConfigKey.RESOURCE_THRESHOLD, """
                {"clusterStrategy": {"enable": true},
                 "nodeStrategies": [{"name": "big", "nodeSelector": {"matchLabels": {"size": "big"}}, "cpuSuppressThresholdPercent": 80}]}
                """, "t");
        SloStrategies system = SloConfigParser.parse(SloConfigKey.SYSTEM, null, "t");
        ObjectNode kept = (ObjectNode) JSON.readTree("{\"policy\":\"auto\"}");
        NodeSLO.Spec existing = new NodeSLO.Spec(null, null, kept, null, JSON.readTree("{\"Object\":{\"x\":1}}"), null);
        // cpu-burst-config is broken and has no good value: the node's existing burst strategy stays
        NodeSLO.Spec spec = NodeSloSpecs.render(Map.of(SloConfigKey.RESOURCE_THRESHOLD, threshold, SloConfigKey.SYSTEM, system),
                Map.of("size", "big"), Map.of(NodeSloSpecs.ANNOTATION_NETWORK_BANDWIDTH, "10G"), existing);
        assertEquals(80, spec.resourceUsedThresholdWithBE().get("cpuSuppressThresholdPercent").asInt());
        assertEquals(kept, spec.cpuBurstStrategy());
        assertEquals("10G", spec.systemStrategy().get("totalNetworkBandwidth").asText(), "the node annotation overrides");
        assertEquals(existing.extensions(), spec.extensions());
        assertNull(NodeSloSpecs.render(Map.of(SloConfigKey.SYSTEM, system), Map.of(),
                Map.of(NodeSloSpecs.ANNOTATION_NETWORK_BANDWIDTH, "fast"), null).systemStrategy(),
                "an unparsable bandwidth annotation: no system strategy, as Koordinator");
    }

    @Test
    void thePlanCreatesUpdatesAndDeletesOnlyWhatDiffers() throws Exception {
        Node a = new NodeBuilder().withNewMetadata().withName("a").endMetadata().build();
        Node b = new NodeBuilder().withNewMetadata().withName("b").endMetadata().build();
        Map<String, Object> spec = Map.of("k", 1);
        ObjectPlan plan = ObjectPlan.of(List.of(a, b), Map.of("b", JSON.readTree("{\"k\":2}"), "gone", JSON.readTree("{}")), n -> spec);
        assertEquals(List.of("a"), plan.creates().stream().map(w -> w.node().getMetadata().getName()).toList());
        assertEquals(List.of("b"), plan.updates().stream().map(w -> w.node().getMetadata().getName()).toList());
        assertEquals(List.of("gone"), plan.deletes());
        assertEquals(true, ObjectPlan.of(List.of(b), Map.of("b", JSON.readTree("{\"k\":1}")), n -> spec).isEmpty());
        assertEquals(true, ObjectPlan.of(List.of(b), Map.of("b", JSON.readTree("{\"k\":5}")), n -> null).isEmpty(),
                "no desired spec: the node's object is left as it is");
    }
}
