package io.colocation.koordlet.qos.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.cgroup.CgroupFileWriter;
import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.collect.CollectTargets.YarnTarget;
import io.colocation.koordlet.yarn.HostProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** YARN containers are placed only under the YARN parent, and only processes of the NodeManager are moved. */
class YarnCgroupsTest {
    private static final String GOOD = "container_1700000000000_0001_01_000002";
    private static final String TRAVERSAL = "../../../system.slice/sshd.service";

    @Test
    void onAFakeTreeATraversingIdAndAForeignProcessWriteNothingAndAreCounted(@TempDir Path root) throws Exception {
        Path cgroup = root.resolve("cgroup");
        Files.createDirectories(cgroup.resolve("system.slice/sshd.service"));
        Files.writeString(cgroup.resolve("cgroup.controllers"), "cpuset cpu memory\n");
        CgroupWriter writer = new CgroupFileWriter(new CgroupLayout(cgroup, CgroupLayout.Version.V2, CgroupLayout.Driver.CGROUPFS),
                Clock.systemUTC(), 100);
        String parent = "kubepods/besteffort/hadoop-yarn";
        YarnCgroups yarn = new YarnCgroups(writer, parent, pid -> pid == 4242);

        yarn.reconcile(List.of(new YarnTarget(TRAVERSAL, "", List.of(4242), 1, 1, 0, false),
                new YarnTarget("container_1/../../x", "", List.of(4242), 1, 1, 0, false),
                new YarnTarget(GOOD, "", List.of(4242, 1), 300, 512, 0, false)));

        try (Stream<Path> files = Files.walk(cgroup.resolve("system.slice"))) {
            assertEquals(List.of("sshd.service"), files.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(n -> !n.equals("system.slice")).toList(), "nothing made or written outside the YARN parent");
        }
        assertFalse(Files.exists(cgroup.resolve("system.slice/sshd.service/memory.max")));
        Path mine = cgroup.resolve(parent).resolve(GOOD);
        assertEquals("4242", Files.readString(mine.resolve("cgroup.procs")), "only the NodeManager's process is moved");
        assertEquals("10000", Files.readString(mine.resolve("cpu.weight")), "300 vcores: cpu.shares clamped to the kernel's 262144");
        assertEquals(3, yarn.refused(), "two ids and one process refused");
        assertThrows(IllegalArgumentException.class, () -> writer.set("kubepods/../system.slice", CgroupWriter.Knob.MEMORY_LIMIT,
                "1048576", "a path that leaves through .. is refused by the writer too"));
    }

    @Test
    void onThisHostsCgroupsAProcessThatIsNotTheNodeManagersStaysWhereItIs() throws Exception {
        Path root = Path.of("/sys/fs/cgroup");
        assumeTrue("root".equals(System.getProperty("user.name")) && Files.isWritable(root.resolve("cpu")),
                "needs root and writable cgroup v1 hierarchies");
        CgroupWriter writer = new CgroupFileWriter(CgroupLayout.detect(root, "auto", "auto"), Clock.systemUTC(), 100);
        String base = "colocation-yarn-test-" + ProcessHandle.current().pid();
        String parent = base + "/hadoop-yarn";
        HostProcesses proc = new HostProcesses(Path.of("/proc"));
        long self = ProcessHandle.current().pid();
        // The test JVM plays the NodeManager: its child descends from it; an orphaned sleep (reparented to init) does not.
        Process child = new ProcessBuilder("sleep", "60").start();
        Process shell = new ProcessBuilder("sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $!").start();
        int orphan = Integer.parseInt(new String(shell.getInputStream().readAllBytes()).trim());
        shell.waitFor();
        List<String> made = List.of(base, parent, parent + "/" + GOOD);
        try {
            String orphanBefore = Files.readString(Path.of("/proc", Integer.toString(orphan), "cgroup"));
            Path escaped = root.resolve("cpu").resolve(parent).resolve(TRAVERSAL).normalize();
            boolean existedBefore = Files.exists(escaped);
            YarnCgroups yarn = new YarnCgroups(writer, parent, pid -> proc.descendsFrom(pid, self));
            yarn.reconcile(List.of(new YarnTarget(TRAVERSAL, "", List.of((int) child.pid()), 1, 64, 0, false),
                    new YarnTarget(GOOD, "", List.of((int) child.pid(), orphan), 1, 64, 0, false)));
            assertTrue(Files.readString(Path.of("/proc", Long.toString(child.pid()), "cgroup")).contains("/" + parent + "/" + GOOD),
                    "the NodeManager's child is in its container's cgroup");
            assertEquals(orphanBefore, Files.readString(Path.of("/proc", Integer.toString(orphan), "cgroup")),
                    "the orphan was not moved");
            assertEquals(existedBefore, Files.exists(escaped), "no cgroup made where the traversing id points (" + escaped + ")");
            assertEquals(2, yarn.refused(), "the traversing id and the orphan (parent " + proc.parent(orphan) + ")");
        } finally {
            child.destroyForcibly().waitFor();
            new ProcessBuilder("kill", "-9", Integer.toString(orphan)).start().waitFor();
            for (int i = made.size() - 1; i >= 0; i--) {
                writer.remove(made.get(i));
            }
        }
    }
}
