package io.colocation.koordlet.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The /proc facts the copilot checks rest on, from real lines and this very process. */
class HostProcessesTest {
    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void listeningSocketsAreParsedWithTheirLoopbackReach() {
        HostProcesses.Listener l = HostProcesses.parseListener(
                "   3: 0100007F:1F81 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 52871 1 0000000000000000 100 0 0 10 0");
        assertEquals(new HostProcesses.Listener(8065, true, 1001, 52871), l);
        assertTrue(HostProcesses.parseListener(
                "   0: 00000000:1F81 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0").acceptsLoopback());
        assertFalse(HostProcesses.parseListener(
                "   0: 0A00000A:1F81 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0").acceptsLoopback(),
                "10.0.0.10 does not accept 127.0.0.1");
        assertTrue(HostProcesses.parseListener("   0: 00000000000000000000000001000000:1F81 00000000000000000000000000000000:0000 0A"
                + " 00000000:00000000 00:00000000 00000000     0        0 7 1 0").acceptsLoopback(), "::1");
        assertNull(HostProcesses.parseListener(
                "   1: 0100007F:1F81 0100007F:A000 01 00000000:00000000 00:00000000 00000000     0        0 9 1 0"), "ESTABLISHED is no listener");
        assertNull(HostProcesses.parseListener("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode"));
    }

    @Test
    void thisProcessHoldsItsListeningSocketAndDescendsFromItself() throws Exception {
        HostProcesses proc = new HostProcesses(Path.of("/proc"));
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<HostProcesses.Listener> found = proc.listeners(socket.getLocalPort());
            assertEquals(1, found.size(), found.toString());
            assertTrue(proc.holdsSocket(SELF, found.get(0).inode()));
            assertFalse(proc.holdsSocket(1, found.get(0).inode()));
            assertEquals(proc.uid(SELF).getAsLong(), found.get(0).uid());
        }
        Process child = new ProcessBuilder("sleep", "30").start();
        try {
            assertTrue(proc.descendsFrom(child.pid(), SELF));
            assertFalse(proc.descendsFrom(SELF, child.pid()));
            assertFalse(proc.descendsFrom(1, SELF));
            assertTrue(proc.startTime(child.pid()).isPresent());
        } finally {
            child.destroyForcibly();
        }
    }
}
