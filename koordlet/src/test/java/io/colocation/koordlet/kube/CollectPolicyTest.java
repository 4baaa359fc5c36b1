package io.colocation.koordlet.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.koordlet.collect.MemoryCollectPolicy;
import io.colocation.model.slo.NodeMetric;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CollectPolicyTest {
    @Test
    void noSpecMeansTheBrokersDefaults() {
        CollectPolicy p = CollectPolicy.of(null);
        assertEquals(Duration.ofSeconds(300), p.aggregateWindow());
        assertEquals(Duration.ofSeconds(60), p.reportInterval());
        assertEquals(List.of(Duration.ofMinutes(5), Duration.ofMinutes(10), Duration.ofMinutes(30)), p.aggregateDurations());
        assertEquals(MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE, p.memoryPolicy());
        assertTrue(p.problems().isEmpty());
    }

    @Test
    void oddValuesTakeTheDefaultAndAreNamed() {
        CollectPolicy p = CollectPolicy.of(new NodeMetric.Spec(new NodeMetric.CollectPolicy(-5L, 3L,
                new NodeMetric.AggregatePolicy(List.of("2s", "soon", "0s")), "everything")));
        assertEquals(Duration.ofSeconds(300), p.aggregateWindow());
        assertEquals(Duration.ofSeconds(3), p.reportInterval());
        assertEquals(List.of(Duration.ofSeconds(2)), p.aggregateDurations());
        assertEquals(MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE, p.memoryPolicy());
        String all = String.join("\n", p.problems());
        assertTrue(all.contains("aggregateDurationSeconds: -5") && all.contains("'soon'") && all.contains("'0s' is zero")
                && all.contains("unknown policy 'everything'"), all);
    }
}
