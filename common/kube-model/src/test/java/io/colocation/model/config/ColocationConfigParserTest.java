package io.colocation.model.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ColocationConfigParserTest {

    @Test
    void missingOrEmptyKeyMeansKoordinatorDefaults() throws Exception {
        ColocationConfig config = ColocationConfigParser.parse(null, "cm");
        ColocationStrategy s = config.cluster();
        assertEquals(ColocationStrategy.defaults(), s);
        assertEquals(false, s.enable());
        assertEquals(60L, s.cpuReclaimThresholdPercent());
        assertEquals(65L, s.memoryReclaimThresholdPercent());
        assertEquals(CalculatePolicy.USAGE, s.cpuCalculatePolicy());
        assertEquals(15L, s.degradeTimeMinutes());
        assertEquals(300L, s.updateTimeThresholdSeconds());
        assertEquals(0.1, s.resourceDiffThreshold());
        assertEquals(List.of("5m", "10m", "30m"), s.metricAggregateDurations());
        assertEquals(100L, s.midCPUThresholdPercent());
        assertEquals(0L, s.midUnallocatedPercent());
        assertNull(s.batchCPUThresholdPercent());
        assertEquals(ColocationConfig.defaults(), ColocationConfigParser.parse("  ", "cm"));
    }

    @Test
    void userFieldsOverlayDefaultsAndNodeConfigsOverlayTheCluster() throws Exception {
        ColocationConfig config = ColocationConfigParser.parse("""
                {"enable": true, "cpuReclaimThresholdPercent": 70, "memoryCalculatePolicy": "request",
                 "batchCPUThresholdPercent": 150,
                 "nodeConfigs": [
                   {"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}}, "cpuReclaimThresholdPercent": 40},
                   {"name": "any", "nodeSelector": {"matchLabels": {}}, "memoryReclaimThresholdPercent": 50}
                 ]}""", "cm");
        assertEquals(true, config.cluster().enable());
        assertEquals(70L, config.cluster().cpuReclaimThresholdPercent());
        assertEquals(65L, config.cluster().memoryReclaimThresholdPercent());
        assertEquals(CalculatePolicy.REQUEST, config.cluster().memoryCalculatePolicy());
        assertEquals(150L, config.cluster().batchCPUThresholdPercent());
        ColocationStrategy gpu = config.nodeConfigs().get(0).strategy();
        assertEquals(40L, gpu.cpuReclaimThresholdPercent());
        assertEquals(CalculatePolicy.REQUEST, gpu.memoryCalculatePolicy(), "inherits the cluster field");
        assertEquals("gpu", config.nodeConfigs().get(0).name());
    }

    @Test
    void everyInvalidValueIsNamedWithItsKeyAndValue() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> ColocationConfigParser.parse("""
                {"cpuReclaimThresholdPercent": -1, "degradeTimeMinutes": 0, "resourceDiffThreshold": 1.5,
                 "midCPUThresholdPercent": 101, "cpuCalculatePolicy": "peak", "midReclaimMode": "dynamic",
                 "metricMemoryCollectPolicy": "all", "enable": "yes", "memoryReclaimThresholdPercent": 6.5,
                 "nodeConfigs": [{"nodeSelector": {"matchLabels": {"a": "b"}}, "batchMemoryThresholdPercent": -3}]}""",
                "slo.yaml: ConfigMap kube-system/slo-controller-config: data.colocation-config"));
        String m = e.getMessage();
        assertTrue(m.startsWith("slo.yaml: ConfigMap kube-system/slo-controller-config: data.colocation-config: "), m);
        for (String expected : List.of("cpuReclaimThresholdPercent=-1 must be between 0 and 10000", "degradeTimeMinutes=0 must be >= 1",
                "resourceDiffThreshold=1.5 must be > 0 and <= 1", "midCPUThresholdPercent=101 must be between 0 and 100",
                "cpuCalculatePolicy=\"peak\" must be one of usage, request, maxUsageRequest",
                "midReclaimMode=\"dynamic\" must be static", "metricMemoryCollectPolicy=\"all\" must be one of",
                "enable=\"yes\" must be true or false", "memoryReclaimThresholdPercent=6.5 must be an integer",
                "nodeConfigs[0].batchMemoryThresholdPercent=-3 must be between 0 and 10000")) {
            assertTrue(m.contains(expected), "missing '" + expected + "' in: " + m);
        }
        assertEquals(10, e.problems().size());
    }

    @Test
    void malformedJsonAndBadNodeSelectorsAreReported() {
        InvalidConfigException malformed = assertThrows(InvalidConfigException.class,
                () -> ColocationConfigParser.parse("{\"enable\": true,", "cm"));
        assertTrue(malformed.getMessage().contains("malformed JSON"), malformed.getMessage());
        assertTrue(malformed.getMessage().contains("line 1"), malformed.getMessage());

        InvalidConfigException selector = assertThrows(InvalidConfigException.class, () -> ColocationConfigParser.parse("""
                {"nodeConfigs": [{"nodeSelector": {"matchExpressions": [{"key": "a", "operator": "In"}]},
                                  "cpuReclaimThresholdPercent": 10},
                                 {"nodeSelector": {"matchLabels": {"a": "b"}}}]}""", "cm"));
        assertTrue(selector.getMessage().contains("nodeConfigs[0].nodeSelector.matchLabels is required"), selector.getMessage());
        assertTrue(selector.getMessage().contains(
                "nodeConfigs[0].nodeSelector.matchExpressions[0]: for 'in', 'notin' operators, values set can't be empty"), selector.getMessage());
        assertTrue(selector.getMessage().contains("nodeConfigs[1]. sets no strategy field"), selector.getMessage());
    }
}
