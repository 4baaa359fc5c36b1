package io.colocation.model.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeStrategyResolverTest {
    private static final String CONFIG = """
            {"enable": true, "cpuReclaimThresholdPercent": 70,
             "nodeConfigs": [
               {"name": "first", "nodeSelector": {"matchLabels": {"pool": "batch"}}, "cpuReclaimThresholdPercent": 50},
               {"name": "second", "nodeSelector": {"matchLabels": {"pool": "batch"}}, "cpuReclaimThresholdPercent": 30,
                "memoryReclaimThresholdPercent": 30}
             ]}""";

    @Test
    void firstMatchingNodeConfigWinsThenAnnotationThenLabels() throws Exception {
        ColocationConfig config = ColocationConfigParser.parse(CONFIG, "cm");
        assertEquals(70L, NodeStrategyResolver.resolve(config, Map.of("pool", "web"), Map.of()).strategy().cpuReclaimThresholdPercent());

        NodeStrategyResolver.Resolved batch = NodeStrategyResolver.resolve(config, Map.of("pool", "batch"), Map.of());
        assertEquals(50L, batch.strategy().cpuReclaimThresholdPercent());
        assertEquals(65L, batch.strategy().memoryReclaimThresholdPercent(), "the second match is not merged");
        assertEquals("nodeConfigs[0] (first)", batch.source());

        NodeStrategyResolver.Resolved annotated = NodeStrategyResolver.resolve(config, Map.of("pool", "batch"),
                Map.of("node.koordinator.sh/colocation-strategy", "{\"cpuReclaimThresholdPercent\": 45, \"memoryCalculatePolicy\": \"request\"}"));
        assertEquals(45L, annotated.strategy().cpuReclaimThresholdPercent());
        assertEquals(CalculatePolicy.REQUEST, annotated.strategy().memoryCalculatePolicy());

        NodeStrategyResolver.Resolved labelled = NodeStrategyResolver.resolve(config,
                Map.of("pool", "batch", "node.koordinator.sh/cpu-reclaim-ratio", "0.8",
                        "node.koordinator.sh/memory-reclaim-ratio", "1.2",
                        "node.koordinator.sh/mid-static-cpu-reserved-ratio", "0.25"),
                Map.of("node.koordinator.sh/colocation-strategy", "{\"cpuReclaimThresholdPercent\": 45}"));
        assertEquals(80L, labelled.strategy().cpuReclaimThresholdPercent(), "labels win over the annotation");
        assertEquals(120L, labelled.strategy().memoryReclaimThresholdPercent());
        assertEquals(25L, labelled.strategy().midStaticCPUReservedPercent());
    }

    @Test
    void ratioLabelsAreTruncatedLikeKoordinatorsFloat64() throws Exception {
        // int64(0.29 * 100) = int64(28.999999999999996) = 28
        NodeStrategyResolver.Resolved r = NodeStrategyResolver.resolve(ColocationConfig.defaults(),
                Map.of("node.koordinator.sh/cpu-reclaim-ratio", "0.29"), Map.of());
        assertEquals(28L, r.strategy().cpuReclaimThresholdPercent());
    }

    @Test
    void unreadableNodeMetadataIsIgnoredWithANote() {
        NodeStrategyResolver.Resolved r = NodeStrategyResolver.resolve(ColocationConfig.defaults(),
                Map.of("node.koordinator.sh/cpu-reclaim-ratio", "-0.5", "node.koordinator.sh/memory-reclaim-ratio", "lots"),
                Map.of("node.koordinator.sh/colocation-strategy", "{not json"));
        assertEquals(ColocationStrategy.defaults(), r.strategy());
        assertEquals(3, r.notes().size());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("cpu-reclaim-ratio=-0.5")), r.notes().toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("memory-reclaim-ratio=lots: not a number")), r.notes().toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("colocation-strategy") && n.contains("malformed JSON")), r.notes().toString());
    }
}
