package io.colocation.broker.calculation;

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
}
