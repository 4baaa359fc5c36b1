package io.colocation.koordlet.qos.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.cgroup.CgroupFileWriter;
import io.colocation.koordlet.cgroup.CgroupWriter;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.HostUsageSource;
import io.colocation.koordlet.collect.MemoryCollectPolicy;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.Victim;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
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
import java.util.Map;
import java.util.Optional;
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
    private static final long MI = 1L << 20;
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
        writer = new CgroupFileWriter(layout, Clock.systemUTC(), 16);
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

        Process burner = start("cpu");
        String container = "container_1_0001_01_000002";
        YarnCgroups yarn = new YarnCgroups(writer, be + "/hadoop-yarn", pid -> pid == burner.pid());
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

    /**
     * BEMemoryEvict on real measurements: two BE pods in their kubelet-style cgroups under the BE tier, one holding
     * 240 MiB and one 40 MiB; the Node's memory capacity is set so this host's use is at the 70 % threshold (lower
     * 69 %, a release of 1 % of capacity, less than the big pod's memory); the QoS loop evicts the big pod, and only it.
     */
    @Test
    void theMemoryHungryBePodIsTheOneEvicted() throws Exception {
        CgroupLayout layout = CgroupLayout.detect(ROOT, "auto", "cgroupfs");
        Path probe = layout.version() == CgroupLayout.Version.V2 ? ROOT : ROOT.resolve("memory");
        assumeTrue(Files.isWritable(probe), "needs root and a writable cgroup mount at " + ROOT);
        assumeTrue(Files.notExists(probe.resolve("kubepods")), "a kubelet's kubepods cgroup is on this host: not touched");
        writer = new CgroupFileWriter(layout, Clock.systemUTC(), 16);
        String be = layout.qosDir("BestEffort");
        for (String dir : List.of("kubepods", be)) {
            writer.create(dir);
            made.add(dir);
        }
        List<Pod> pods = new ArrayList<>();
        List<CollectTargets.PodTarget> targets = new ArrayList<>();
        for (String[] p : List.of(new String[] {"hog-big", "240"}, new String[] {"hog-small", "40"})) {
            String uid = UUID.randomUUID().toString();
            String dir = layout.podDir("BestEffort", uid);
            writer.create(dir);
            made.add(dir);
            Process hog = start("memory", p[1]);
            writer.moveProcess(dir, hog.pid(), "test: " + p[0]);
            go(hog);
            pods.add(new PodBuilder().withNewMetadata().withName(p[0]).withNamespace("batch").withUid(uid)
                    .withLabels(Map.of("koordinator.sh/qosClass", "BE")).endMetadata().withNewSpec().withPriority(5500)
                    .addNewContainer().withName("c").endContainer().endSpec().withNewStatus().withPhase("Running")
                    .withQosClass("BestEffort").endStatus().build());
            targets.add(new CollectTargets.PodTarget(uid, "batch", p[0], "BestEffort", List.of()));
        }
        HostUsageSource source = new HostUsageSource(Path.of("/proc"), layout);
        HostSample sample = source.collect(new CollectTargets(targets, false, List.of(), false, List.of(),
                MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE), System.currentTimeMillis());
        long capacity = sample.node().memoryBytes() * 100 / 70;
        NodeSLO slo = new NodeSLO();
        slo.setSpec(new NodeSLO.Spec(new ObjectMapper().createObjectNode().put("enable", true).put("memoryEvictThresholdPercent", 70)
                .put("memoryEvictLowerPercent", 69), null, null, null, null, null));
        Map<String, Quantity> resources = Map.of("cpu", new Quantity("2"), "memory", new Quantity(Long.toString(capacity)));
        Node node = new NodeBuilder().withNewMetadata().withName("kernel-node").endMetadata().withNewStatus().withCapacity(resources)
                .withAllocatable(resources).endStatus().build();
        AgentState agent = new StubAgentState(() -> node, () -> pods, slo, () -> sample, Optional::empty);
        List<String> evicted = new ArrayList<>();
        EvictionExecutor executor = new EvictionExecutor() {
            @Override
            public Optional<String> evict(Victim victim, String area, String strategy, String reason) {
                evicted.add(victim + " " + strategy);
                return Optional.empty();
            }

            @Override
            public Optional<String> releaseYarn(YarnRelease release) {
                throw new AssertionError("no YARN container here");
            }
        };
        QoSManager qos = new QoSManager(agent, writer, FeatureGates.parse("BECPUSuppress=false,BEMemoryEvict=true"), QoSOptions.defaults(),
                executor, List::of, 1, Clock.systemUTC());
        QoSManager.Round round = qos.runOnce().orElseThrow();
        assertTrue(sample.pods().get(pods.get(0).getMetadata().getUid()).memoryBytes() >= 240 * MI, "the big hog's 240 MiB are measured");
        assertEquals(List.of("pod batch/hog-big BEMemoryEvict"), evicted, round.memoryEvict().explain().toString());
    }

    private Process start(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx320m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), KernelBurner.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
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
