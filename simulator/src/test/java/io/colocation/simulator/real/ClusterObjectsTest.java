package io.colocation.simulator.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterObjectsTest {
    private static final Path CONF = Path.of("..", "conf");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theShippedConfigMapWithOnlyTheTimeScaledPeriodsChanged() throws Exception {
        ClusterObjects.SloConfig slo = ClusterObjects.shippedSloConfig(CONF);
        JsonNode colocation = JSON.readTree(slo.colocation());
        assertEquals(300, colocation.path("metricReportIntervalSeconds").asInt());
        assertEquals(3600, colocation.path("updateTimeThresholdSeconds").asInt());
        JsonNode shipped = null;
        try (var in = Files.newInputStream(CONF.resolve(ClusterObjects.SHIPPED))) {
            Object parsed = new io.fabric8.kubernetes.client.utils.KubernetesSerialization().unmarshal(in);
            // one ConfigMap (the kit rendered from the chart) or several documents
            for (Object o : parsed instanceof java.util.List<?> documents ? documents : java.util.List.of(parsed)) {
                if (o instanceof io.fabric8.kubernetes.api.model.ConfigMap cm) {
                    shipped = JSON.readTree(cm.getData().get("colocation-config"));
                }
            }
        }
        // every other value is the shipped one
        assertEquals(shipped.size(), colocation.size());
        for (var e : (Iterable<java.util.Map.Entry<String, JsonNode>>) colocation::fields) {
            if (!ClusterObjects.TIME_SCALED.containsKey(e.getKey())) {
                assertEquals(shipped.get(e.getKey()), e.getValue(), e.getKey());
            }
        }
        JsonNode be = JSON.readTree(slo.resourceThresholds()).path("clusterStrategy");
        assertTrue(be.path("enable").asBoolean());
        assertEquals(85, be.path("cpuSuppressThresholdPercent").asInt());
        assertEquals(75, colocation.path("cpuReclaimThresholdPercent").asInt());
        assertEquals(75L, slo.colocationCluster().cpuReclaimThresholdPercent());
        assertEquals(300, slo.thresholdsCluster().path("cpuEvictTimeWindowSeconds").asInt());
    }

    /** A user's ConfigMap as {@code kubectl get -o yaml} writes a list: Koordinator's defaults under what it sets. */
    @Test
    void aUsersConfigMapFromKubectlWithKoordinatorsDefaultsUnderIt(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("mine.yaml"), """
                apiVersion: v1
                kind: List
                items:
                - apiVersion: v1
                  kind: ConfigMap
                  metadata: {name: slo-controller-config, namespace: koordinator-system}
                  data:
                    colocation-config: '{"enable": true, "cpuReclaimThresholdPercent": 70}'
                    resource-threshold-config: '{"clusterStrategy": {"enable": true, "cpuSuppressThresholdPercent": 80}}'
                """);
        ClusterObjects.SloConfig slo = ClusterObjects.sloConfig(file);
        assertEquals(file.toString(), slo.source());
        assertEquals(70L, slo.colocationCluster().cpuReclaimThresholdPercent());
        assertEquals(65L, slo.colocationCluster().memoryReclaimThresholdPercent(), "Koordinator's default");
        assertEquals(80, slo.thresholdsCluster().path("cpuSuppressThresholdPercent").asInt());
        assertEquals(70, slo.thresholdsCluster().path("memoryEvictThresholdPercent").asInt(), "Koordinator's default");
        JsonNode applied = JSON.readTree(slo.colocation());
        assertEquals(300, applied.path("metricReportIntervalSeconds").asInt(), "scaled for the clock as the shipped one is");
        assertEquals(70, applied.path("cpuReclaimThresholdPercent").asInt());
    }

    @Test
    void aConfigurationWithoutTheConfigMapIsOneLineNamingTheFile(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("kubernetes"));
        Files.writeString(dir.resolve(ClusterObjects.SHIPPED), "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ClusterObjects.shippedSloConfig(dir));
        assertTrue(e.getMessage().contains("slo-controller-config.yaml") && e.getMessage().contains("no ConfigMap"), e.getMessage());
        Files.delete(dir.resolve(ClusterObjects.SHIPPED));
        e = assertThrows(InvalidInputException.class, () -> ClusterObjects.shippedSloConfig(dir));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    }

    /** A sweep's value, set where Koordinator reads it and checked by the same rules. */
    @Test
    void aThresholdIsSetWhereItLivesAndCheckedAgain() throws Exception {
        ClusterObjects.SloConfig shipped = ClusterObjects.shippedSloConfig(CONF);
        ClusterObjects.SloConfig reclaim = ClusterObjects.withThreshold(shipped, "colocation-config", "cpuReclaimThresholdPercent", 60);
        assertEquals(60L, reclaim.colocationCluster().cpuReclaimThresholdPercent());
        assertEquals(300, JSON.readTree(reclaim.colocation()).path("metricReportIntervalSeconds").asInt(), "still scaled");
        assertEquals(85, reclaim.thresholdsCluster().path("cpuSuppressThresholdPercent").asInt(), "the rest as it was");
        ClusterObjects.SloConfig suppress = ClusterObjects.withThreshold(shipped, "resource-threshold-config", "cpuSuppressThresholdPercent", 70);
        assertEquals(70, suppress.thresholdsCluster().path("cpuSuppressThresholdPercent").asInt());
        assertTrue(suppress.thresholdsCluster().path("enable").asBoolean());
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> ClusterObjects.withThreshold(shipped, "resource-threshold-config", "cpuSuppressThresholdPercent", 120));
        assertTrue(e.getMessage().contains("with cpuSuppressThresholdPercent=120") && e.getMessage().contains("resource-threshold-config"),
                e.getMessage());
    }
}
