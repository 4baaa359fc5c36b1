package io.colocation.model.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.InvalidInputException;
import io.colocation.model.Resources;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class YarnReleaseTest {
    private static final Instant EXPIRES = Instant.parse("2026-11-23T10:00:40Z");

    @Test
    void whatTheKoordletWritesTheBrokerReadsBack() throws InvalidInputException {
        YarnRelease written = new YarnRelease(new Resources(1500, 2L << 30), EXPIRES, "BECPUEvict: satisfaction 0.2",
                List.of("container_1_0001_01_000002"));
        YarnRelease read = YarnRelease.parse(written.toJson(), "Node n1");
        assertEquals(written, read);
        assertTrue(read.activeAt(EXPIRES.minusSeconds(1)));
        assertFalse(read.activeAt(EXPIRES), "expired at its expiry time");
    }

    @Test
    void quantitiesInKubernetesNotationAreAccepted() throws InvalidInputException {
        YarnRelease r = YarnRelease.parse("{\"limit\":{\"cpu\":\"2\",\"memory\":\"3Gi\"},\"expires\":\"2026-11-23T11:00:40+01:00\"}",
                "Node n1");
        assertEquals(new Resources(2000, 3L << 30), r.limit());
        assertEquals(EXPIRES, r.expires());
        assertEquals(List.of(), r.containers());
    }

    @Test
    void badAnnotationsAreNamedErrors() {
        assertTrue(message("x").startsWith("Node n1: annotation colocation.io/yarn-release: malformed JSON (Unrecognized token"),
                message("x"));
        assertEquals("Node n1: annotation colocation.io/yarn-release: limit must give cpu and memory",
                message("{\"limit\":{\"cpu\":\"1\"},\"expires\":\"2026-11-23T10:00:40Z\"}"));
        assertEquals("Node n1: annotation colocation.io/yarn-release limit.cpu: negative quantity \"-1\"",
                message("{\"limit\":{\"cpu\":\"-1\",\"memory\":\"0\"},\"expires\":\"2026-11-23T10:00:40Z\"}"));
        assertEquals("Node n1: annotation colocation.io/yarn-release: expires \"soon\" is not an RFC 3339 time such as"
                + " 2026-11-21T08:00:00Z", message("{\"limit\":{\"cpu\":\"1\",\"memory\":\"0\"},\"expires\":\"soon\"}"));
        assertEquals("Node n1: annotation colocation.io/yarn-release limit.memory: \"lots\" is not a Kubernetes quantity"
                + " (examples: 500m, 4, 1.5Gi)", message("{\"limit\":{\"cpu\":\"1\",\"memory\":\"lots\"},\"expires\":\"x\"}"));
    }

    private static String message(String json) {
        return assertThrows(InvalidInputException.class, () -> YarnRelease.parse(json, "Node n1")).getMessage();
    }
}
