package io.colocation.broker.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.model.Resources;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Write thresholds and the Koordinator annotations' JSON. */
class PublicationTest {
    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static final Resources TEN = new Resources(10_000, 10_000);

    private static String reason(Resources current, Resources desired, Instant lastWrite) {
        return PublicationThreshold.reason(current, desired, null, null, lastWrite, 0.1, 300, NOW);
    }

    @Test
    void writesFollowKoordinatorsThresholdsButShrinksGoOutAtOnce() {
        assertEquals("first write since this broker started leading", reason(TEN, TEN, null));
        assertNull(reason(TEN, new Resources(11_000, 10_000), NOW.minusSeconds(10)), "+10 % is not more than 10 %");
        assertTrue(reason(TEN, new Resources(11_001, 10_000), NOW.minusSeconds(10)).contains("resourceDiffThreshold"));
        assertEquals("batch grant shrinks", reason(TEN, new Resources(9_999, 10_000), NOW.minusSeconds(10)));
        assertEquals("batch resources removed", reason(TEN, null, NOW.minusSeconds(10)));
        assertEquals("batch resources added", reason(null, TEN, NOW.minusSeconds(10)));
        assertTrue(reason(TEN, TEN, NOW.minusSeconds(301)).contains("updateTimeThresholdSeconds"));
        assertNull(reason(TEN, TEN, NOW.minusSeconds(300)));
        assertTrue(PublicationThreshold.moved(0, 1, 0.1), "any change from 0 counts");
    }

    @Test
    void annotationsUseKoordinatorsFormatAndKeepOtherWriters() throws Exception {
        assertEquals("{\"resources\":{\"kubernetes.io/batch-cpu\":\"5600\",\"kubernetes.io/batch-memory\":\"1024\"}}",
                NodeStatusPublisher.originExtendedAllocatable(null, new Resources(5600, 1024)));
        assertEquals("{\"resources\":{\"gpu\":\"1\",\"kubernetes.io/batch-cpu\":\"1\",\"kubernetes.io/batch-memory\":\"2\"}}",
                NodeStatusPublisher.originExtendedAllocatable("{\"resources\":{\"gpu\":\"1\"}}", new Resources(1, 2)));
        String other = "{\"name\":\"spark-operator\",\"priority\":\"koord-batch\",\"resources\":{\"kubernetes.io/batch-cpu\":\"1000\"}}";
        String updated = NodeStatusPublisher.thirdPartyAllocations("{\"allocations\":[" + other
                + ",{\"name\":\"hadoop-yarn\",\"priority\":\"koord-batch\",\"resources\":{}}]}", new Resources(4000, 4L << 30));
        assertEquals("{\"allocations\":[" + other + ",{\"name\":\"hadoop-yarn\",\"priority\":\"koord-batch\",\"resources\":"
                + "{\"kubernetes.io/batch-cpu\":\"4000\",\"kubernetes.io/batch-memory\":\"4294967296\"}}]}", updated);
        assertTrue(NodeStatusPublisher.thirdPartyAllocations("not json", Resources.ZERO).startsWith("{\"allocations\":[{\"name\":\"hadoop-yarn\""),
                "a malformed annotation is replaced");
    }
}
