package io.colocation.copilot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Process trees read from the real /proc of this host. */
class ProcessTableTest {

    @Test
    void treeHoldsTheRootItsDescendantsAndItsSessionAndTheKillerEndsThemAll() throws Exception {
        // setsid makes bash a session leader, as the NodeManager's executor does; the inner bash double-forks a sleep
        Process root = new ProcessBuilder("setsid", "bash", "-c", "sleep 60 & (sleep 60 &) ; wait").start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            List<Integer> tree = List.of();
            int rootPid = -1;
            while (System.nanoTime() < deadline) {
                // setsid may fork: the session leader is the bash whose parent is our child or our child itself
                rootPid = (int) (long) root.toHandle().descendants().filter(h -> h.info().command().orElse("").endsWith("bash"))
                        .findFirst().map(ProcessHandle::pid).orElse(root.pid());
                tree = ProcessTable.read(Path.of("/proc")).treeOf(rootPid);
                // Wait for the settled tree: the subshell that double-forks the second sleep lives only for a moment,
                // and a pid that ends on its own before the kill is not the killer's to report.
                if (tree.size() == 3 && tree.subList(1, 3).stream().allMatch(pid -> "sleep".equals(comm(pid)))) {
                    break;
                }
                Thread.sleep(50);
            }
            assertEquals(rootPid, (int) tree.get(0));
            assertEquals(3, tree.size(), "bash and two sleeps (one re-parented away, kept by its session): " + tree);

            ContainerKiller.Outcome outcome = new ContainerKiller(Path.of("/proc"), 2_000).kill("container_test", rootPid, "test");
            assertTrue(outcome.terminated().containsAll(tree), outcome.toString());
            Thread.sleep(200);
            for (int pid : tree) {
                assertFalse(RunningProcess.running(pid), "pid " + pid + " survived");
            }
        } finally {
            root.destroyForcibly();
        }
    }

    @Test
    void aProcessThatIsNotRunningHasNoTree() {
        assertEquals(List.of(), ProcessTable.read(Path.of("/proc")).treeOf(Integer.MAX_VALUE - 7));
        assertTrue(ProcessTable.read(Path.of("/proc")).isAlive((int) ProcessHandle.current().pid()));
    }

    private static String comm(int pid) {
        try {
            return java.nio.file.Files.readString(Path.of("/proc", Integer.toString(pid), "comm")).strip();
        } catch (java.io.IOException gone) {
            return "";
        }
    }
}
