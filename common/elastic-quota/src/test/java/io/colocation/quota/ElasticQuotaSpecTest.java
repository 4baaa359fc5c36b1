package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.colocation.api.InvalidInputException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ElasticQuota objects read as Koordinator reads them, and quota units both ways. */
class ElasticQuotaSpecTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static ElasticQuotaSpec read(String yaml) throws Exception {
        return ElasticQuotaSpec.read(YAML.readTree(yaml));
    }

    @Test
    void koordinatorsLabelsAndAnnotations() throws Exception {
        ElasticQuotaSpec q = read("""
                apiVersion: scheduling.sigs.k8s.io/v1alpha1
                kind: ElasticQuota
                metadata:
                  name: team-a
                  namespace: team-a
                  labels: {quota.scheduling.koordinator.sh/parent: tenants, quota.scheduling.koordinator.sh/is-parent: "false",
                           quota.scheduling.koordinator.sh/allow-lent-resource: "false"}
                  annotations:
                    quota.scheduling.koordinator.sh/shared-weight: '{"cpu": "2", "memory": "4Gi"}'
                    quota.scheduling.koordinator.sh/namespaces: '["etl", "web"]'
                spec:
                  min: {cpu: 1500m, memory: 2Gi, kubernetes.io/batch-cpu: "4000"}
                  max: {cpu: "8", memory: 16Gi, kubernetes.io/batch-cpu: "16000"}
                """);
        assertEquals("tenants", q.parent());
        assertFalse(q.isParent());
        assertFalse(q.allowLent());
        assertEquals(ResourceAmounts.of("cpu", 1500, "memory", 2L << 30, "kubernetes.io/batch-cpu", 4000), q.min());
        assertEquals(ResourceAmounts.of("cpu", 2000, "memory", 4L << 30), q.sharedWeight());
        assertEquals(List.of("etl", "web"), q.namespaces());
        assertNull(q.sharedWeightNote());
    }

    @Test
    void koordinatorsDefaults() throws Exception {
        ElasticQuotaSpec q = read("{metadata: {name: q}, spec: {max: {cpu: '4'}}}");
        assertEquals(QuotaTree.ROOT, q.parent(), "no parent label: the root's child");
        assertTrue(q.allowLent(), "lends unless exactly false");
        assertEquals("default", q.namespace());
        assertEquals(q.max(), q.sharedWeight(), "no shared-weight: the max");
        for (String bad : List.of("'not json'", "'{\"cpu\": \"lots\"}'", "'{\"cpu\": \"0\"}'")) {
            ElasticQuotaSpec w = read("{metadata: {name: q, annotations: {quota.scheduling.koordinator.sh/shared-weight: " + bad
                    + "}}, spec: {max: {cpu: '4'}}}");
            assertEquals(w.max(), w.sharedWeight(), bad);
            assertTrue(w.sharedWeightNote().contains("the max is the shared weight"), w.sharedWeightNote());
        }
    }

    @Test
    void badQuantitiesAreNamed() {
        assertEquals("ElasticQuota default/q: spec.min.cpu: negative quantity \"-1\"", assertThrows(InvalidInputException.class,
                () -> read("{metadata: {name: q}, spec: {min: {cpu: '-1'}}}")).getMessage());
        assertTrue(assertThrows(InvalidInputException.class, () -> read("{metadata: {name: q}, spec: {max: {memory: '1e30'}}}"))
                .getMessage().startsWith("ElasticQuota default/q: spec.max.memory: \"1e30\" is beyond what a quota holds"));
        assertTrue(assertThrows(InvalidInputException.class, () -> read("{metadata: {name: q, annotations:"
                + " {quota.scheduling.koordinator.sh/namespaces: 'x'}}}")).getMessage().contains("is not a JSON list of namespaces"));
    }

    /** Koordinator's createQuantity: cpu as milli-cores, memory binary SI, the rest decimal SI; printed canonically. */
    @Test
    void amountsAreWrittenAsKoordinatorsAnnotationsCarryThem() {
        assertEquals(Map.of("cpu", "1500m", "memory", "1Gi", "kubernetes.io/batch-cpu", "4k", "pods", "10"),
                QuotaUnits.write(ResourceAmounts.of("cpu", 1500, "memory", 1L << 30, "kubernetes.io/batch-cpu", 4000, "pods", 10)));
        assertEquals(Map.of("cpu", "2", "memory", "1500"), QuotaUnits.write(ResourceAmounts.of("cpu", 2000, "memory", 1500)));
    }
}
