package io.colocation.model.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import io.colocation.model.Resources;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class YarnReleaseTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant EXPIRES = Instant.parse("2026-11-23T10:00:40Z");

    @Test
    void whatTheKoordletWritesTheBrokerReadsBack() throws Exception {
        YarnRelease written = new YarnRelease(new Resources(1500, 2L << 30), EXPIRES, "BECPUEvict: satisfaction 0.2",
                List.of("container_1_0001_01_000002"));
        YarnRelease read = YarnRelease.parse(written.toSpec(), "YarnRelease n1");
        assertEquals(written.canonical(), YarnRelease.parse(JSON.readTree(
                "{\"containers\":[\"container_1_0001_01_000002\"],\"expires\":\"2026-11-23T11:00:40+01:00\",\"reason\":"
                + "\"BECPUEvict: satisfaction 0.2\",\"limit\":{\"memory\":\"2Gi\",\"cpu\":\"1.5\"}}"), "YarnRelease n1").canonical(),
                "one text whatever the order and notation it was written in");
        assertEquals(written, read);
        assertTrue(read.activeAt(EXPIRES.minusSeconds(1)));
        assertFalse(read.activeAt(EXPIRES), "expired at its expiry time");
    }

    @Test
    void quantitiesInKubernetesNotationAreAccepted() throws Exception {
        YarnRelease r = YarnRelease.parse(JSON.readTree("{\"limit\":{\"cpu\":\"2\",\"memory\":\"3Gi\"},"
                + "\"expires\":\"2026-11-23T11:00:40+01:00\"}"), "YarnRelease n1");
        assertEquals(new Resources(2000, 3L << 30), r.limit());
        assertEquals(EXPIRES, r.expires());
        assertEquals(List.of(), r.containers());
    }

    @Test
    void badSpecsAreNamedErrors() {
        assertEquals("YarnRelease n1: spec must be an object with limit and expires", message("\"x\""));
        assertEquals("YarnRelease n1: spec: limit must give cpu and memory",
                message("{\"limit\":{\"cpu\":\"1\"},\"expires\":\"2026-11-23T10:00:40Z\"}"));
        assertEquals("YarnRelease n1: spec limit.cpu: negative quantity \"-1\"",
                message("{\"limit\":{\"cpu\":\"-1\",\"memory\":\"0\"},\"expires\":\"2026-11-23T10:00:40Z\"}"));
        assertEquals("YarnRelease n1: spec: expires \"soon\" is not an RFC 3339 time such as"
                + " 2026-11-21T08:00:00Z", message("{\"limit\":{\"cpu\":\"1\",\"memory\":\"0\"},\"expires\":\"soon\"}"));
        assertEquals("YarnRelease n1: spec limit.memory: \"lots\" is not a Kubernetes quantity"
                + " (examples: 500m, 4, 1.5Gi)", message("{\"limit\":{\"cpu\":\"1\",\"memory\":\"lots\"},\"expires\":\"x\"}"));
    }

    private static String message(String json) {
        return assertThrows(InvalidInputException.class, () -> YarnRelease.parse(JSON.readTree(json), "YarnRelease n1")).getMessage();
    }
}
