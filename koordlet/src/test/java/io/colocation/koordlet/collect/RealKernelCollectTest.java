package io.colocation.koordlet.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.colocation.koordlet.cgroup.CgroupLayout;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The collectors on this machine's real kernel: a CPU-burning process in a pod-like cgroup and one in a
 * YARN-like cgroup are measured within 10 % of their own CPU time, and memory a process allocates is seen.
 * Needs root and writable cgroups (skips with the reason otherwise); removes every cgroup it made.
 */
class RealKernelCollectTest {
    private static final Path ROOT = Path.of("/sys/fs/cgroup");
    private static final long MI = 1L << 20;

    private final List<Process> processes = new ArrayList<>();
    private final List<Path> made = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor();
        }
        // Deepest first; a group can be removed once its processes are gone.
        for (int i = made.size() - 1; i >= 0; i--) {
            Files.deleteIfExists(made.get(i));
        }
    }

    @Test
    void burnersInPodAndYarnCgroupsAreMeasuredAsTheirOwnCpuTime() throws Exception {
        CgroupLayout layout = CgroupLayout.detect(ROOT, "auto", "cgroupfs");
        List<String> hierarchies = layout.version() == CgroupLayout.Version.V2 ? List.of("") : List.of("cpuacct", "memory", "cpu");
        assumeTrue(Files.isWritable(ROOT.resolve(hierarchies.get(0))), "needs root and a writable cgroup mount at " + ROOT);
        assumeTrue(layout.version() == CgroupLayout.Version.V1 || Files.readString(ROOT.resolve("cgroup.subtree_control")).contains("cpu"),
                "cgroup v2 without the cpu controller enabled at the root");
        assumeTrue(!Files.exists(ROOT.resolve(hierarchies.get(0)).resolve("kubepods")),
                "a kubelet owns kubepods here; this test creates its own and must not touch a real one");

        String uid = UUID.randomUUID().toString();
        String podDir = layout.podDir("Burstable", uid);
        String yarnDir = "colocation-test-" + uid.substring(0, 8) + "/hadoop-yarn/container_1_0001_01_000002";
        for (String h : hierarchies) {
            mkdirs(ROOT.resolve(h), podDir);
            mkdirs(ROOT.resolve(h), yarnDir);
        }
        Process podBurner = start(hierarchies, podDir, "cpu");
        Process yarnBurner = start(hierarchies, yarnDir, "cpu");
        Process hog = start(hierarchies, podDir, "memory", "160");

        HostUsageSource source = new HostUsageSource(Path.of("/proc"), layout);
        CollectTargets targets = new CollectTargets(
                List.of(new CollectTargets.PodTarget(uid, "test", "burner", "Burstable", List.of())), false, List.of(), true,
                List.of(new CollectTargets.YarnTarget("container_1_0001_01_000002", yarnDir, List.of())),
                MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE);
        long pod0 = cpuNanos(podBurner) + cpuNanos(hog);
        long yarn0 = cpuNanos(yarnBurner);
        long t0 = System.nanoTime();
        source.collect(targets, System.currentTimeMillis());
        Thread.sleep(3000);
        long pod1 = cpuNanos(podBurner) + cpuNanos(hog);
        long yarn1 = cpuNanos(yarnBurner);
        HostSample s = source.collect(targets, System.currentTimeMillis());
        double seconds = (System.nanoTime() - t0) / 1e9;

        double podOwn = (pod1 - pod0) / 1e9 / seconds;
        double yarnOwn = (yarn1 - yarn0) / 1e9 / seconds;
        assertTrue(podOwn > 0.3 && yarnOwn > 0.3, "the burners ran: " + podOwn + ", " + yarnOwn);
        assertEquals(podOwn, s.pods().get(uid).cpuCores(), podOwn * 0.10, "pod cgroup CPU vs the processes' own CPU time");
        assertEquals(yarnOwn, s.yarnContainers().get("container_1_0001_01_000002").cpuCores(), yarnOwn * 0.10,
                "YARN cgroup CPU vs the process's own CPU time");
        assertTrue(s.pods().get(uid).memoryBytes() >= 160 * MI, "the 160 MiB the hog touched: " + s.pods().get(uid).memoryBytes());
        assertTrue(s.node().cpuCores() >= s.pods().get(uid).cpuCores() * 0.9, "the node includes its pods");
    }

    private Process start(List<String> hierarchies, String dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), KernelBurner.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        processes.add(p);
        for (String h : hierarchies) {
            Files.writeString(ROOT.resolve(h).resolve(dir).resolve("cgroup.procs"), Long.toString(p.pid()));
        }
        OutputStream in = p.getOutputStream();
        in.write("go\n".getBytes(StandardCharsets.US_ASCII));
        in.flush();
        String ready = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        assertTrue(ready != null && ready.startsWith("ready"), "burner started: " + ready);
        return p;
    }

    private void mkdirs(Path hierarchy, String dir) throws IOException {
        Path at = hierarchy;
        for (String part : dir.split("/")) {
            at = at.resolve(part);
            if (!Files.exists(at)) {
                Files.createDirectory(at);
                made.add(at);
            }
        }
    }

    private static long cpuNanos(Process p) throws IOException {
        return ProcessCpuTime.ticks(p.pid()) * 10_000_000L;
    }
}
