package io.colocation.koordlet.qos.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.KernelBurner;
import io.colocation.koordlet.collect.ProcessCpuTime;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The BE tier on this machine's real kernel: a burning process of a YARN container (DefaultContainerExecutor: in no
 * cgroup) is placed by the koordlet in its container cgroup under the BE tier, and when the cgroup writer sets the
 * tier's CFS quota the process is held to it within 10 %; the writer audits old and new values and writes nothing
 * when nothing changes. Needs root and writable cgroups (skips with the reason otherwise); removes what it made.
 */
class BeTierKernelTest {
    private static final Path ROOT = Path.of("/sys/fs/cgroup");

    private final List<Process> processes = new ArrayList<>();
    private CgroupWriter writer;
    private final List<String> made = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor();
        }
        for (int i = made.size() - 1; i >= 0; i--) {
            assertTrue(writer.remove(made.get(i)), "removed " + made.get(i));
        }
    }

    @Test
    void aYarnContainerPlacedInTheTierIsHeldToItsQuota() throws Exception {
        CgroupLayout layout = CgroupLayout.detect(ROOT, "auto", "cgroupfs");
        Path probe = layout.version() == CgroupLayout.Version.V2 ? ROOT : ROOT.resolve("cpu");
        assumeTrue(Files.isWritable(probe), "needs root and a writable cgroup mount at " + ROOT);
        assumeTrue(layout.version() == CgroupLayout.Version.V1 || Files.readString(ROOT.resolve("cgroup.subtree_control")).contains("cpu"),
                "cgroup v2 without the cpu controller enabled at the root");
        writer = new CgroupWriter(layout, Clock.systemUTC(), 16);
        String parent = "colocation-qos-test-" + UUID.randomUUID().toString().substring(0, 8);
        String be = parent + "/besteffort";
        writer.create(parent);
        made.add(parent);
        writer.create(be);
        made.add(be);

        assertTrue(writer.set(be, CgroupWriter.Knob.CPU_QUOTA, "20000", "test: 0.2 cores"));
        assertFalse(writer.set(be, CgroupWriter.Knob.CPU_QUOTA, "20000", "test: same again"), "an unchanged value is not written");
        assertEquals("20000", writer.get(be, CgroupWriter.Knob.CPU_QUOTA).orElseThrow());
        if (writer.supports(be, CgroupWriter.Knob.CPU_IDLE)) {
            assertTrue(writer.set(be, CgroupWriter.Knob.CPU_IDLE, "1", "test: BE tier idle for the kernel scheduler"));
            assertEquals("1", writer.get(be, CgroupWriter.Knob.CPU_IDLE).orElseThrow());
            assertTrue(writer.set(be, CgroupWriter.Knob.CPU_IDLE, "0", "test: back to normal for the measurement"));
        }
        // The most weight there is, so other work on a busy CI machine never holds the burner below its quota.
        writer.set(parent, CgroupWriter.Knob.CPU_SHARES, "262144", "test: the quota alone limits the burner");

        Process burner = start();
        String container = "container_1_0001_01_000002";
        YarnCgroups yarn = new YarnCgroups(writer, be + "/hadoop-yarn");
        yarn.reconcile(List.of(new CollectTargets.YarnTarget(container, "", List.of((int) burner.pid()), 1, 512, 0, false)));
        made.add(be + "/hadoop-yarn");
        made.add(be + "/hadoop-yarn/" + container);
        assertTrue(Files.readString(Path.of("/proc", Long.toString(burner.pid()), "cgroup"))
                .contains("/" + be + "/hadoop-yarn/" + container), "the container's process is in its cgroup under the BE tier");
        go(burner);
        long before = ProcessCpuTime.ticks(burner.pid());
        long t0 = System.nanoTime();
        Thread.sleep(3000);
        double cores = (ProcessCpuTime.ticks(burner.pid()) - before) * 10_000_000.0 / (System.nanoTime() - t0);
        assertEquals(0.20, cores, 0.02, "the YARN container is held to the BE tier's 20 ms / 100 ms quota");

        assertTrue(writer.set(be, CgroupWriter.Knob.CPU_QUOTA, "-1", "test: released"));
        List<CgroupWriter.Write> audit = writer.audit();
        CgroupWriter.Write first = audit.get(0);
        assertTrue(first.newValue().startsWith("20000") && first.reason().contains("0.2 cores"), first.toString());
        CgroupWriter.Write last = audit.get(audit.size() - 1);
        assertTrue(last.oldValue().startsWith("20000") && last.error() == null, last.toString());
    }

    private Process start() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                KernelBurner.class.getName(), "cpu").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        processes.add(p);
        return p;
    }

    /** The burner starts burning (and only then: everything it does is charged to the cgroup it is in now). */
    private static void go(Process p) throws Exception {
        OutputStream in = p.getOutputStream();
        in.write("go\n".getBytes(StandardCharsets.US_ASCII));
        in.flush();
        String ready = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        assertTrue(ready != null && ready.startsWith("ready"), "burner started: " + ready);
    }
}
