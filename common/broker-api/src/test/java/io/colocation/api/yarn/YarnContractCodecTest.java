package io.colocation.api.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class YarnContractCodecTest {

    @Test
    void roundTripsEveryDocument() throws IOException {
        YarnGrant grant = new YarnGrant("h:1", 3, 7, 4, 4096, 10);
        assertEquals(grant, YarnContractCodec.read("/g", YarnContractCodec.write(grant), YarnGrant.class));
        YarnGrant keeping = new YarnGrant("h:1", 3, 8, 2, 2048, 11, 6, 8192);
        assertEquals(keeping, YarnContractCodec.read("/g", YarnContractCodec.write(keeping), YarnGrant.class));
        YarnNodeReport report = new YarnNodeReport("h:1", 2, 2048, 1, 10);
        assertEquals(report, YarnContractCodec.read("/n", YarnContractCodec.write(report), YarnNodeReport.class));
    }

    @Test
    void aGrantOfABrokerBeforeKeepKeepsNothing() throws IOException {
        byte[] old = "{\"nodeId\":\"h:1\",\"epoch\":1,\"version\":2,\"vcores\":3,\"memoryMB\":1024,\"issuedAtMillis\":5}"
                .getBytes(StandardCharsets.UTF_8);
        YarnGrant g = YarnContractCodec.read("/g", old, YarnGrant.class);
        assertEquals(new YarnGrant("h:1", 1, 2, 3, 1024, 5), g);
        assertEquals(0, g.keepVcores());
        assertEquals(0, g.keepMemoryMB());
        byte[] negative = "{\"nodeId\":\"h:1\",\"epoch\":1,\"version\":2,\"vcores\":3,\"memoryMB\":1024,\"issuedAtMillis\":5,\"keepVcores\":-1}"
                .getBytes(StandardCharsets.UTF_8);
        IOException e = assertThrows(IOException.class, () -> YarnContractCodec.read("/g", negative, YarnGrant.class));
        assertTrue(e.getMessage().contains("keepVcores -1 is negative"), e.getMessage());
    }

    @Test
    void aNegativeAllocationIsRefusedWhereItIsReadNamingPathAndField() {
        byte[] bad = "{\"nodeId\":\"h:1\",\"allocatedVcores\":-100,\"allocatedMemoryMB\":1024,\"runningContainers\":1,\"reportedAtMillis\":1}"
                .getBytes(StandardCharsets.UTF_8);
        IOException e = assertThrows(IOException.class,
                () -> YarnContractCodec.read("/colocation/yarn/c/nodes/h:1", bad, YarnNodeReport.class));
        assertTrue(e.getMessage().startsWith("/colocation/yarn/c/nodes/h:1 is not a valid YarnNodeReport document"), e.getMessage());
        assertTrue(e.getMessage().contains("allocatedVcores -100 is negative"), e.getMessage());
    }

    @Test
    void negativeGrantsAndMissingNodeIdsCannotBeBuiltOrRead() {
        assertThrows(IllegalArgumentException.class, () -> new YarnGrant("h:1", 1, 1, -1, 1024, 0));
        assertThrows(IllegalArgumentException.class, () -> new YarnGrant("h:1", 1, 1, 1, -5, 0));
        assertThrows(IOException.class, () -> YarnContractCodec.read("/g",
                "{\"epoch\":1,\"version\":1,\"vcores\":1,\"memoryMB\":1}".getBytes(StandardCharsets.UTF_8), YarnGrant.class));
        assertThrows(IOException.class, () -> YarnContractCodec.read("/g", new byte[0], YarnGrant.class));
    }
}
