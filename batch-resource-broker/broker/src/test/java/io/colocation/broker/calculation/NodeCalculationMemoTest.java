package io.colocation.broker.calculation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.broker.calculation.NodeMetricState;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationConfigParser;
import io.colocation.model.config.ColocationConfig;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeCalculationMemoTest {
    private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");

    private static Node node(String resourceVersion) {
        Map<String, Quantity> r = Map.of("cpu", new Quantity("16"), "memory", new Quantity("64Gi"));
        return new NodeBuilder().withNewMetadata().withName("n1").withResourceVersion(resourceVersion).endMetadata()
                .withNewStatus().withCapacity(r).withAllocatable(r).endStatus().build();
    }

    @Test
    void anUnchangedNodeIsNotDecidedAgainUntilItsMetricGoesStale() throws Exception {
        ColocationConfig config = ColocationConfigParser.parse("{\"enable\": true}", "t");
        NodeCalculation.Metric metric = NodeCalculation.Metric.of(new NodeMetricState(T0, new Resources(4000, 16L << 30),
                new Resources(4000, 16L << 30), List.of(), List.of(), null));
        NodeCalculationMemo memo = new NodeCalculationMemo();
        NodeCalculationMemo.Facts first = memo.calculate(config, node("1"), List.of(), metric, "m1", T0.plusSeconds(60));
        assertSame(first, memo.calculate(config, node("1"), List.of(), metric, "m1", T0.plusSeconds(120)), "nothing changed");
        assertNotSame(first, memo.calculate(config, node("2"), List.of(), metric, "m1", T0.plusSeconds(120)), "the Node changed");
        NodeCalculationMemo.Facts fresh = memo.calculate(config, node("2"), List.of(), metric, "m1", T0.plusSeconds(180));
        assertFalse(fresh.outcome().reclaim().degraded());
        NodeCalculationMemo.Facts stale = memo.calculate(config, node("2"), List.of(), metric, "m1", T0.plus(Duration.ofMinutes(16)));
        assertTrue(stale.outcome().reclaim().degraded(), "15 minutes without a NodeMetric update degrade the node, memo or not");
    }

    private static io.fabric8.kubernetes.api.model.Pod batchPod(String uid, String resourceVersion, String batchCpu) {
        Map<String, Quantity> r = Map.of("kubernetes.io/batch-cpu", new Quantity(batchCpu), "kubernetes.io/batch-memory",
                new Quantity("4Gi"));
        return new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName("job-" + uid).withNamespace("batch").withUid(uid)
                .withResourceVersion(resourceVersion).addToLabels("koordinator.sh/qosClass", "BE").endMetadata().withNewSpec()
                .withNodeName("n1").withPriorityClassName("koord-batch").addNewContainer().withName("c").withNewResources()
                .addToRequests(r).addToLimits(r).endResources().endContainer().endSpec().withNewStatus().withPhase("Running").endStatus()
                .build();
    }

    @Test
    void aPodIsReadOncePerResourceVersionAndAnUnreadableOneEveryTime() throws Exception {
        ColocationConfig config = ColocationConfigParser.parse("{\"enable\": true}", "t");
        NodeCalculation.Metric metric = NodeCalculation.Metric.of(new NodeMetricState(T0, new Resources(4000, 16L << 30),
                new Resources(4000, 16L << 30), List.of(), List.of(), null));
        NodeCalculationMemo memo = new NodeCalculationMemo();
        io.fabric8.kubernetes.api.model.Pod job = batchPod("u1", "7", "2000");
        assertEquals(2000, memo.calculate(config, node("1"), List.of(job), metric, "m1", T0).batchUsed().cpuMilli());
        // the same resourceVersion is the same object to the API server: what was read of it stands
        io.fabric8.kubernetes.api.model.Pod sameVersion = batchPod("u1", "7", "3000");
        assertEquals(2000, memo.calculate(config, node("2"), List.of(sameVersion), metric, "m1", T0).batchUsed().cpuMilli());
        io.fabric8.kubernetes.api.model.Pod newVersion = batchPod("u1", "8", "3000");
        assertEquals(3000, memo.calculate(config, node("3"), List.of(newVersion), metric, "m1", T0).batchUsed().cpuMilli());
        io.fabric8.kubernetes.api.model.Pod unreadable = batchPod("u2", "9", "3000");
        unreadable.getSpec().getContainers().get(0).getResources().getRequests().put("kubernetes.io/batch-memory", new Quantity("-4Gi"));
        for (String version : List.of("4", "5")) {
            NodeCalculationMemo.Facts f = memo.calculate(config, node(version), List.of(newVersion, unreadable), metric, "m1", T0);
            assertEquals(3000, f.batchUsed().cpuMilli(), "the unreadable pod is not counted");
            assertTrue(f.notes().stream().anyMatch(n -> n.startsWith("not counted: ") && n.contains("job-u2")), f.notes().toString());
        }
    }
}
