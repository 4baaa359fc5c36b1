package io.colocation.sandbox.parts;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.colocation.localclusters.kube.KubeletNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's own BE tier on this host's real cgroups (root, cgroup v1, no live kubelet; skipped otherwise): what a
 * killed sandbox left does not keep the next one from making its tier, and the tier leaves nothing behind.
 */
class HostBestEffortTierTest {
    private static final Path CGROUP = Path.of("/sys/fs/cgroup");
    private static final Path CPU = CGROUP.resolve("cpu");

    @Test
    void whatAKilledRunLeftIsRemovedAndTheTierIsMadeAgain() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")) && Files.isWritable(CPU), "needs root and writable cgroup v1");
        assumeTrue(KubeletNode.liveKubelet().isEmpty(), () -> "a live kubelet owns kubepods: " + KubeletNode.liveKubelet().get());
        // a killed sandbox's tier: made, never removed
        Files.createDirectories(CPU.resolve("kubepods/besteffort/hadoop-yarn/container_1_0001_01_000002"));

        HostBestEffortTier.Result made = HostBestEffortTier.create(CGROUP);
        try {
            assertNotNull(made.tier(), made.why());
            assertTrue(Files.isDirectory(CPU.resolve("kubepods/besteffort")), "the tier is made");
            assertFalse(Files.exists(CPU.resolve("kubepods/besteffort/hadoop-yarn")), "the killed run's cgroups are gone");
        } finally {
            if (made.tier() != null) {
                made.tier().close();
            }
        }
        assertFalse(Files.exists(CPU.resolve("kubepods")), "the tier leaves nothing behind");
    }
}
