package io.colocation.koordlet.qos.agent;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.colocation.api.PriorityClass;
import io.colocation.api.QoSClass;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.cgroup.CgroupFileWriter;
import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.collect.KernelBurner;
import io.colocation.koordlet.qos.BestEffortState;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.QoSPod;
import io.colocation.koordlet.qos.ResourceThresholds;
import io.colocation.koordlet.qos.cpusuppress.CpuSuppress;
import io.colocation.koordlet.qos.evict.MemoryEvict;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How fast the BE tier gives way, on this machine's real cgroups: BE burners fill every CPU; an online burner group,
 * frozen until the step, is woken (SIGCONT) at a random phase of the loop's second, and the time until the BE tier
 * gets less than 20 % of its earlier CPU rate over a whole CFS period is measured, with the 1 s suppress loop alone (the real {@link CpuSuppress} decision written by the cgroup
 * writer, as the agent does) and with the BE cgroup also marked {@code cpu.idle}. Then memory: a BE process fills
 * memory past the eviction threshold and the time until the loop's {@link MemoryEvict} decision evicts it.
 * Not part of the test suite: {@code dev/bench-koordlet-reaction.sh}.
 */
class BeReactionBenchmark {
    private static final Path ROOT = Path.of("/sys/fs/cgroup");
    private static final int STEPS = Integer.getInteger("reaction.steps", 20);

    private final List<Process> processes = new ArrayList<>();
    private final List<String> made = new ArrayList<>();
    private CgroupWriter writer;
    private CgroupLayout layout;

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : processes) {
            signal(p, "CONT");
            p.destroyForcibly();
            p.waitFor();
        }
        for (int i = made.size() - 1; i >= 0; i--) {
            writer.remove(made.get(i));
        }
    }

    @Test
    void reaction() throws Exception {
        layout = CgroupLayout.detect(ROOT, "auto", "cgroupfs");
        Path probe = layout.version() == CgroupLayout.Version.V2 ? ROOT : ROOT.resolve("cpu");
        assumeTrue(Files.isWritable(probe), "needs root and a writable cgroup mount at " + ROOT);
        writer = new CgroupFileWriter(layout, Clock.systemUTC(), 1000);
        String root = "colocation-bench-" + UUID.randomUUID().toString().substring(0, 8);
        String be = root + "/besteffort";
        String online = root + "/online";
        for (String d : List.of(root, be, online)) {
            writer.create(d);
            made.add(d);
        }
        int cpus = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < cpus; i++) {
            go(start(be, "cpu", "3600"));
        }
        List<Process> onlineBurners = new ArrayList<>();
        for (int i = 0; i < cpus; i++) {
            Process p = start(online, "cpu", "3600");
            go(p);
            signal(p, "STOP");
            onlineBurners.add(p);
        }
        boolean idleSupported = writer.supports(be, CgroupWriter.Knob.CPU_IDLE);
        List<Long> loops = steps(be, online, onlineBurners, cpus, false);
        List<Long> idle = idleSupported ? steps(be, online, onlineBurners, cpus, true) : List.of();
        List<Long> memory = memory(be, cpus);

        System.out.println("BE tier reaction: " + cpus + " CPUs, cgroup " + layout.version().name().toLowerCase() + ", "
                + STEPS + " online load steps");
        System.out.printf("%-42s %8s %8s %8s%n", "", "p50 ms", "p99 ms", "max ms");
        print("spike -> BE throttled, 1 s suppress loop", loops);
        if (idleSupported) {
            print("spike -> BE throttled, loop + cpu.idle", idle);
        } else {
            System.out.println("spike -> BE throttled, loop + cpu.idle      (cpu.idle not available on this kernel)");
        }
        print("memory over threshold -> BE evicted", memory);
    }

    /** STEPS spikes; each returns the ms from waking the online burners until the BE rate fell below 20 %. */
    private List<Long> steps(String be, String online, List<Process> onlineBurners, int cpus, boolean idle) throws Exception {
        writer.set(be, CgroupWriter.Knob.CPU_IDLE, idle ? "1" : "0", "bench");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicBoolean paused = new AtomicBoolean(true);
        Thread loop = new Thread(() -> suppressLoop(be, online, cpus, idle, running, paused), "bench-suppress-loop");
        loop.start();
        List<Long> out = new ArrayList<>();
        try {
            for (int step = 0; step < STEPS; step++) {
                // Between steps the tier recovers in full (the loop would regrow its quota 10 % of the node per second).
                paused.set(true);
                Thread.sleep(50);
                writer.set(be, CgroupWriter.Knob.CPU_QUOTA, "-1", "bench: recovered BE tier");
                Thread.sleep(1500);
                double before = rate(be, 300);
                paused.set(false);
                Thread.sleep((long) (Math.random() * 1000)); // the spike comes at any phase of the loop's second
                long t0 = System.nanoTime();
                for (Process p : onlineBurners) {
                    signal(p, "CONT");
                }
                // Samples every 5 ms for 3 s; the reaction is the start of the first whole CFS period (100 ms) in which
                // the tier got less than 20 % of its rate before (shorter windows would mistake a quota's idle tail
                // for a reaction).
                List<long[]> samples = new ArrayList<>();
                while (System.nanoTime() - t0 < 3_000_000_000L) {
                    samples.add(new long[] {System.nanoTime() - t0, usage(be)});
                    Thread.sleep(5);
                }
                long reacted = -1;
                for (int i = 0, j = 0; i < samples.size() && reacted < 0; i++) {
                    while (j < samples.size() && samples.get(j)[0] - samples.get(i)[0] < 100_000_000L) {
                        j++;
                    }
                    if (j == samples.size()) {
                        break;
                    }
                    double r = (samples.get(j)[1] - samples.get(i)[1]) / (double) (samples.get(j)[0] - samples.get(i)[0]);
                    if (r < before * 0.2) {
                        reacted = samples.get(i)[0] / 1_000_000;
                    }
                }
                for (Process p : onlineBurners) {
                    signal(p, "STOP");
                }
                out.add(reacted < 0 ? 3000 : reacted);
            }
        } finally {
            running.set(false);
            loop.join();
        }
        return out;
    }

    /** The agent's CPU suppress each second: the real decision from the last second's usage, written by the writer. */
    private void suppressLoop(String be, String online, int cpus, boolean idle, AtomicBoolean running, AtomicBoolean paused) {
        BeCpuEnforcer enforcer = new BeCpuEnforcer(writer, be);
        try {
            long beLast = usage(be);
            long onLast = usage(online);
            while (running.get()) {
                Thread.sleep(1000);
                long beNow = usage(be);
                long onNow = usage(online);
                long beMilli = (beNow - beLast) / 1_000_000;
                long onMilli = (onNow - onLast) / 1_000_000;
                beLast = beNow;
                onLast = onNow;
                if (paused.get()) {
                    continue;
                }
                long quota = writer.get(be, CgroupWriter.Knob.CPU_QUOTA).map(Long::parseLong).orElse(-1L);
                NodeSnapshot s = snapshot(cpus, onMilli, beMilli, 0, 0, quota, "cfsQuota", false, 0);
                enforcer.apply(CpuSuppress.decide(s), List.of(), idle);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Five times: a BE process fills memory past the eviction threshold; ms from the moment the node crossed it (seen
     * by a 10 ms watcher) until the 1 s loop's MemoryEvict decision had the process killed.
     */
    private List<Long> memory(String be, int cpus) throws Exception {
        List<Long> out = new ArrayList<>();
        long total = meminfo("MemTotal");
        for (int i = 0; i < 5; i++) {
            long usedBefore = total - meminfo("MemAvailable");
            long threshold = (usedBefore + (200L << 20)) * 100 / total + 1; // crossed before the hog has its 800 MiB
            long[] crossedAt = {-1};
            long[] evictedAt = {-1};
            AtomicBoolean running = new AtomicBoolean(true);
            Process hog = start(be, "memory", "800");
            Thread watcher = new Thread(() -> {
                try {
                    while (running.get() && crossedAt[0] < 0) {
                        if ((total - meminfo("MemAvailable")) * 100 / total >= threshold) {
                            crossedAt[0] = System.nanoTime();
                        }
                        Thread.sleep(10);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "bench-memory-watcher");
            Thread loop = new Thread(() -> {
                try {
                    while (running.get()) {
                        Thread.sleep(1000);
                        long used = total - meminfo("MemAvailable");
                        NodeSnapshot s = snapshot(cpus, 0, 0, used, total, -1, "cpuset", true, threshold);
                        if (!MemoryEvict.decide(s).victims().isEmpty()) {
                            hog.destroyForcibly();
                            evictedAt[0] = System.nanoTime();
                            return;
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "bench-memory-loop");
            watcher.start();
            loop.start();
            go(hog);
            loop.join(10_000);
            running.set(false);
            loop.join();
            watcher.join();
            hog.waitFor();
            out.add(evictedAt[0] < 0 || crossedAt[0] < 0 ? 10_000 : Math.max(0, (evictedAt[0] - crossedAt[0]) / 1_000_000));
        }
        return out;
    }

    private NodeSnapshot snapshot(int cpus, long onlineMilli, long beMilli, long memoryUsed, long memoryTotal, long quota,
            String policy, boolean memoryEvict, long memoryThreshold) throws Exception {
        QoSPod onlinePod = new QoSPod("bench", "online", QoSClass.LS, "Burstable", 9500, 9500, PriorityClass.PROD,
                PriorityClass.PROD, 9500, false, 0, null, true, Map.of("cpu", 1000L), List.of(), onlineMilli, 0L);
        QoSPod bePod = new QoSPod("bench", "be", QoSClass.BE, "BestEffort", 5500, 5500, PriorityClass.BATCH,
                PriorityClass.BATCH, 5500, false, 0, null, true, Map.of(), List.of(), beMilli, memoryUsed);
        String thresholds = "{\"enable\":true,\"cpuSuppressPolicy\":\"" + policy + "\""
                + (memoryEvict ? ",\"memoryEvictThresholdPercent\":" + memoryThreshold : "") + "}";
        return new NodeSnapshot("bench", cpus * 1000L, memoryTotal, Map.of(), 0, List.of(), List.of(), List.of(onlinePod, bePod),
                List.of(), onlineMilli + beMilli, memoryUsed, List.of(),
                ResourceThresholds.of(new com.fasterxml.jackson.databind.ObjectMapper().readTree(thresholds), "bench"),
                memoryEvict ? FeatureGates.parse("BEMemoryEvict=true") : FeatureGates.defaultGates(), null,
                new BestEffortState(null, quota, BestEffortState.DEFAULT_PERIOD, null, null), 1);
    }

    private double rate(String dir, long millis) throws Exception {
        long u0 = usage(dir);
        long t0 = System.nanoTime();
        Thread.sleep(millis);
        return (usage(dir) - u0) / (double) (System.nanoTime() - t0);
    }

    /** The cgroup's CPU time in ns. */
    private long usage(String dir) throws Exception {
        String text = Files.readString(layout.file(dir, CgroupLayout.Interface.CPU_USAGE)).trim();
        if (layout.version() == CgroupLayout.Version.V1) {
            return Long.parseLong(text);
        }
        for (String line : text.split("\n")) {
            if (line.startsWith("usage_usec ")) {
                return Long.parseLong(line.substring(11).trim()) * 1000;
            }
        }
        throw new IllegalStateException("no usage_usec in cpu.stat");
    }

    private static long meminfo(String field) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
            }
        }
        throw new IllegalStateException("no " + field);
    }

    private Process start(String dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                KernelBurner.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        processes.add(p);
        writer.moveProcess(dir, p.pid(), "bench");
        return p;
    }

    private static void go(Process p) throws Exception {
        OutputStream in = p.getOutputStream();
        in.write("go\n".getBytes(StandardCharsets.US_ASCII));
        in.flush();
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII)).readLine();
    }

    private static void signal(Process p, String signal) throws Exception {
        if (p.isAlive()) {
            new ProcessBuilder("kill", "-s", signal, Long.toString(p.pid())).start().waitFor();
        }
    }

    private static void print(String label, List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        System.out.printf("%-42s %8d %8d %8d%n", label, percentile(sorted, 50), percentile(sorted, 99), sorted.get(sorted.size() - 1));
    }

    private static long percentile(List<Long> sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
