package io.colocation.model.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SloConfigParserTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static SloStrategies parse(SloConfigKey key, String json) throws InvalidConfigException {
        return SloConfigParser.parse(key, json, "slo.yaml: " + key.key());
    }

    @Test
    void anAbsentKeyIsItsDefaults() throws Exception {
        assertEquals(JSON.readTree("{\"enable\":false,\"cpuSuppressThresholdPercent\":65,\"cpuSuppressPolicy\":\"cpuset\","
                + "\"memoryEvictThresholdPercent\":70,\"cpuEvictPolicy\":\"evictByRealLimit\"}"),
                parse(SloConfigKey.RESOURCE_THRESHOLD, null).forNode(Map.of()));
        assertEquals(JSON.readTree("{}"), parse(SloConfigKey.RESOURCE_QOS, "").forNode(Map.of()));
        assertEquals(JSON.readTree("{\"totalNetworkBandwidth\":\"0\"}"), parse(SloConfigKey.SYSTEM, null).cluster());
        assertEquals(1000, parse(SloConfigKey.CPU_BURST, null).cluster().get("cpuBurstPercent").asInt());
    }

    @Test
    void clusterMergesOntoDefaultsAndTheFirstMatchingNodeStrategyOntoTheCluster() throws Exception {
        SloStrategies s = parse(SloConfigKey.RESOURCE_THRESHOLD, """
                {"clusterStrategy": {"enable": true, "cpuSuppressThresholdPercent": 60},
                 "nodeStrategies": [
                   {"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}}, "memoryEvictThresholdPercent": 80},
                   {"name": "also-gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}}, "memoryEvictThresholdPercent": 90}]}
                """);
        assertEquals(60, s.forNode(Map.of()).get("cpuSuppressThresholdPercent").asInt());
        assertEquals(70, s.forNode(Map.of()).get("memoryEvictThresholdPercent").asInt());
        var gpu = s.forNode(Map.of("pool", "gpu"));
        assertEquals(80, gpu.get("memoryEvictThresholdPercent").asInt(), "the first matching strategy wins");
        assertEquals(60, gpu.get("cpuSuppressThresholdPercent").asInt(), "the node strategy keeps the cluster's other fields");
        assertTrue(gpu.get("enable").asBoolean());
        assertTrue(!gpu.has("name") && !gpu.has("nodeSelector"), gpu.toString());
    }

    @Test
    void nestedObjectsMergeFieldByFieldAndListsReplace() throws Exception {
        SloStrategies s = parse(SloConfigKey.RESOURCE_QOS, """
                {"clusterStrategy": {"beClass": {"cpuQOS": {"enable": true, "groupIdentity": -1}, "memoryQOS": {"enable": true}}},
                 "nodeStrategies": [{"name": "n", "nodeSelector": {"matchLabels": {"a": "b"}},
                                     "beClass": {"cpuQOS": {"groupIdentity": 0}}}]}
                """);
        var node = s.forNode(Map.of("a", "b"));
        assertEquals(JSON.readTree("{\"beClass\":{\"cpuQOS\":{\"enable\":true,\"groupIdentity\":0},\"memoryQOS\":{\"enable\":true}}}"), node);
        SloStrategies apps = parse(SloConfigKey.HOST_APPLICATION, """
                {"applications": [{"name": "yarn-task", "priority": "koord-batch", "qos": "BE"}],
                 "nodeConfigs": [{"name": "n", "nodeSelector": {"matchLabels": {"a": "b"}}, "applications": [{"name": "other"}]}]}
                """);
        assertEquals("yarn-task", apps.forNode(Map.of()).get("applications").get(0).get("name").asText());
        assertEquals(1, apps.forNode(Map.of("a", "b")).get("applications").size(), "a node's list replaces the cluster's");
        assertEquals("other", apps.forNode(Map.of("a", "b")).get("applications").get(0).get("name").asText());
    }

    @Test
    void everyBadValueIsNamedWithKeyFieldAndValue() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> parse(SloConfigKey.RESOURCE_THRESHOLD, """
                {"clusterStrategy": {"cpuSuppressThresholdPercent": 101, "cpuSuppressPolicy": "quota", "enable": "yes",
                                     "memoryEvictThresholdPercent": 50, "memoryEvictLowerPercent": 60},
                 "nodeStrategies": [{"name": "x", "nodeSelector": {"matchLabels": {"a": "b"}}, "allocatableEvictPriorityThreshold": 9000}]}
                """));
        String m = e.getMessage();
        assertTrue(m.startsWith("slo.yaml: resource-threshold-config: "), m);
        for (String part : new String[] {"clusterStrategy.enable=\"yes\" must be true or false",
            "clusterStrategy.cpuSuppressThresholdPercent=101 must be between 0 and 100",
            "clusterStrategy.cpuSuppressPolicy=\"quota\" must be one of cpuset, cfsQuota",
            "clusterStrategy.memoryEvictThresholdPercent=50 must be greater than memoryEvictLowerPercent=60",
            "nodeStrategies[0].allocatableEvictPriorityThreshold=9000 must be between 0 and 7999"}) {
            assertTrue(m.contains(part), "missing '" + part + "' in: " + m);
        }
        assertTrue(assertThrows(InvalidConfigException.class, () -> parse(SloConfigKey.CPU_BURST, "{\"clusterStrategy\":"))
                .getMessage().contains("cpu-burst-config: malformed JSON"));
        assertTrue(assertThrows(InvalidConfigException.class, () -> parse(SloConfigKey.RESOURCE_QOS,
                "{\"clusterStrategy\": {\"lsClass\": {\"resctrlQOS\": {\"catRangeStartPercent\": 80, \"catRangeEndPercent\": 20}}}}"))
                .getMessage().contains("lsClass.resctrlQOS.catRangeEndPercent=20 must be greater than lsClass.resctrlQOS.catRangeStartPercent=80"));
        assertTrue(assertThrows(InvalidConfigException.class, () -> parse(SloConfigKey.SYSTEM,
                "{\"clusterStrategy\": {\"totalNetworkBandwidth\": \"fast\", \"watermarkScaleFactor\": 0}}"))
                .getMessage().contains("clusterStrategy.totalNetworkBandwidth=\"fast\" is not a quantity"));
        assertTrue(assertThrows(InvalidConfigException.class, () -> parse(SloConfigKey.HOST_APPLICATION,
                "{\"applications\": [{\"priority\": \"gold\", \"cgroupPath\": {\"base\": \"root\"}}]}"))
                .getMessage().contains("applications[0].name is required"));
    }

    @Test
    void jsonMergeDropsUnsetOverlayFields() throws Exception {
        var base = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree("{\"a\":1,\"m\":{\"x\":1,\"y\":2},\"l\":[1,2]}");
        assertEquals(JSON.readTree("{\"a\":1,\"m\":{\"x\":1,\"y\":3,\"z\":4},\"l\":[9]}"),
                JsonMerge.merge(base, JSON.readTree("{\"a\":null,\"m\":{\"y\":3,\"z\":4},\"l\":[9]}")));
        assertEquals(JSON.readTree("{\"a\":1,\"m\":{\"x\":1,\"y\":2},\"l\":[1,2]}"), base, "the base is not changed");
    }
}
