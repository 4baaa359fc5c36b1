package io.colocation.koordlet.qos.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.cgroup.CgroupFileWriter;
import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.CpuTopologyReader;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.Usage;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.Victim;
import io.colocation.koordlet.qos.evict.MemoryPressureEvict;
import io.colocation.model.Resources;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.slo.NodeSLO;
import io.colocation.testsupport.ManualClock;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's QoS loop on a captured cgroup v1 tree and /sys topology: CPU suppress's decision reaches the BE
 * cgroup through the cgroup writer (quota; cpuset on the BE cgroup and its pods and containers, loosened top-down
 * before it is tightened bottom-up), and every write is audited.
 */
class QoSManagerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path cgroup;
    private final String be = "kubepods/besteffort";
    private final String pod = be + "/pod-1";
    private final String container = pod + "/c1";
    private List<CollectTargets.YarnTarget> yarn = List.of();
    private FeatureGates gates = FeatureGates.defaultGates();
    private long nodeMemory = 8L << 30;
    private Map<String, Usage> yarnUsage = Map.of();
    private QoSOptions options = QoSOptions.defaults();
    private CgroupLayout.Version version = CgroupLayout.Version.V1;
    private HostSample.Pressure pressure = HostSample.Pressure.NONE;
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-23T10:00:00Z"));
    private final List<String> evicted = new java.util.ArrayList<>();
    private final List<YarnRelease> releases = new java.util.ArrayList<>();
    private final EvictionExecutor evictions = new EvictionExecutor() {
        @Override
        public Optional<String> evict(Victim victim, String area, String strategy, String reason) {
            evicted.add(victim + " " + area + " " + strategy);
            return Optional.empty();
        }

        @Override
        public Optional<String> releaseYarn(YarnRelease release) {
            releases.add(release);
            return Optional.empty();
        }
    };

    private void tree() throws Exception {
        cgroup = dir.resolve("cgroup");
        for (String h : List.of("cpu", "cpuacct", "cpuset", "memory")) {
            Files.createDirectories(cgroup.resolve(h).resolve(container));
        }
        Files.writeString(cgroup.resolve("cpu").resolve(be).resolve("cpu.cfs_quota_us"), "-1\n");
        for (String d : List.of(be, pod, container)) {
            Files.writeString(cgroup.resolve("cpuset").resolve(d).resolve("cpuset.cpus"), "0-7\n");
        }
        for (int cpu = 0; cpu < 8; cpu++) {
            Path c = dir.resolve("sys/devices/system/cpu/cpu" + cpu);
            Files.createDirectories(c.resolve("topology"));
            Files.createDirectories(c.resolve("node" + cpu / 4));
            Files.writeString(c.resolve("topology/core_id"), Integer.toString(cpu / 2));
            Files.writeString(c.resolve("topology/physical_package_id"), Integer.toString(cpu / 4));
        }
    }

    private QoSManager manager(String policy) {
        Node node = new NodeBuilder().withNewMetadata().withName("n1").endMetadata().withNewStatus()
                .withCapacity(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi")))
                .withAllocatable(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"))).endStatus().build();
        Pod online = new PodBuilder().withNewMetadata().withName("web").withNamespace("shop").withUid("u-web")
                .withLabels(Map.of("koordinator.sh/qosClass", "LS")).endMetadata().withNewSpec().withPriority(9500)
                .addNewContainer().withName("c").withNewResources().withRequests(Map.of("cpu", new Quantity("4"))).endResources()
                .endContainer().endSpec().withNewStatus().withPhase("Running").endStatus().build();
        Pod batch = new PodBuilder().withNewMetadata().withName("spark").withNamespace("batch").withUid("u-spark")
                .withLabels(Map.of("koordinator.sh/qosClass", "BE")).endMetadata().withNewSpec().withPriority(5500)
                .addNewContainer().withName("c").endContainer().endSpec().withNewStatus().withPhase("Running").endStatus().build();
        NodeSLO slo = new NodeSLO();
        ObjectNode thresholds = JSON.createObjectNode().put("enable", true).put("cpuSuppressThresholdPercent", 65)
                .put("cpuSuppressPolicy", policy).put("cpuEvictBESatisfactionLowerPercent", 60)
                .put("cpuEvictBESatisfactionUpperPercent", 80);
        slo.setSpec(new NodeSLO.Spec(thresholds, null, null, null, null, null));
        HostSample sample = new HostSample(0, new Usage(3.0, nodeMemory), Map.of("u-web", new Usage(2.0, 4L << 30),
                "u-spark", new Usage(0.5, 1L << 30)), Map.of(), Map.of(), yarnUsage, new Usage(0, 0), pressure);
        AgentState agent = new StubAgentState(() -> node, () -> List.of(online, batch), slo, () -> sample, () -> Optional.of(yarn));
        CgroupLayout layout = new CgroupLayout(cgroup, version, CgroupLayout.Driver.CGROUPFS);
        return new QoSManager(agent, new CgroupFileWriter(layout, clock, 50), gates, options, evictions, () -> CpuTopologyReader.read(dir.resolve("sys")), 1, clock);
    }

    /** 8000m × 65 % = 5200 − LS 2000 − system max(3000 − 2500, 0) = 2700m → quota 270000 µs. */
    @Test
    void cfsQuotaPolicyWritesTheBeQuota() throws Exception {
        tree();
        QoSManager.Round round = manager("cfsQuota").runOnce().orElseThrow();
        assertEquals(2700, round.cpuSuppress().beMilliCpu());
        assertTrue(round.enforced());
        assertEquals("270000", Files.readString(cgroup.resolve("cpu").resolve(be).resolve("cpu.cfs_quota_us")));
    }

    /**
     * 2700m → 3 CPUs (also the growth limit from the 2 it has), a hyper-thread pair and one CPU of the next socket,
     * on the BE cgroup and everything under it.
     */
    @Test
    void cpusetPolicyLoosensTopDownThenTightensBottomUp() throws Exception {
        tree();
        Files.writeString(cgroup.resolve("cpuset").resolve(be).resolve("cpuset.cpus"), "6-7");
        Files.writeString(cgroup.resolve("cpuset").resolve(pod).resolve("cpuset.cpus"), "6-7");
        Files.writeString(cgroup.resolve("cpuset").resolve(container).resolve("cpuset.cpus"), "6-7");
        QoSManager qos = manager("cpuset");
        QoSManager.Round round = qos.runOnce().orElseThrow();
        assertEquals(List.of(0, 1, 4), round.cpuSuppress().cpusetCpus());
        for (String d : List.of(be, pod, container)) {
            assertEquals("0-1,4", Files.readString(cgroup.resolve("cpuset").resolve(d).resolve("cpuset.cpus")), d);
        }
        List<CgroupWriter.Write> writes = qos.writes().stream().filter(w -> w.file().equals("cpuset.cpus")).toList();
        assertEquals(List.of(be, pod, container, container, pod, be), writes.stream().map(CgroupWriter.Write::dir).toList(),
                "loosened top-down, then tightened bottom-up");
        assertEquals("0-1,4,6-7", writes.get(0).newValue());
        assertEquals("6-7", writes.get(0).oldValue());
        assertTrue(writes.get(5).reason().contains("BE budget 2700m"), writes.get(5).reason());
        int written = qos.writes().size();
        qos.runOnce().orElseThrow();
        assertEquals(written, qos.writes().size(), "a second round with the same decision writes nothing");
    }

    /**
     * A YARN container YARN left outside any cgroup (DefaultContainerExecutor) gets one under the BE tier, with shares
     * and a memory limit from its allocation, and its processes, although the copilot reports where YARN's cgroup would
     * be (it always does); one whose reported cgroup exists was placed by YARN and is left alone; both are then
     * suppressed with the tier.
     */
    @Test
    void yarnContainersArePlacedInTheBeTier() throws Exception {
        tree();
        for (String h : List.of("cpu", "cpuacct", "cpuset", "memory")) {
            Files.createDirectories(cgroup.resolve(h).resolve("yarn-own/container_1_0001_01_000003"));
        }
        yarn = List.of(new CollectTargets.YarnTarget("container_1_0001_01_000002", "kubepods/besteffort/hadoop-yarn/container_1_0001_01_000002",
                        List.of(4242, 4243), 2, 1024, 0, false),
                new CollectTargets.YarnTarget("container_1_0001_01_000003", "yarn-own/container_1_0001_01_000003", List.of(4250),
                        1, 512, 0, false));
        QoSManager qos = manager("cpuset");
        qos.runOnce().orElseThrow();
        Path placed = cgroup.resolve("cpu").resolve(be).resolve("hadoop-yarn/container_1_0001_01_000002");
        assertEquals("4243", Files.readString(placed.resolve("cgroup.procs")), "the last pid written (each pid once)");
        assertEquals("2048", Files.readString(placed.resolve("cpu.shares")));
        assertEquals(Long.toString(1024L << 20), Files.readString(cgroup.resolve("memory").resolve(be)
                .resolve("hadoop-yarn/container_1_0001_01_000002/memory.limit_in_bytes")));
        assertEquals(2, qos.writes().stream().filter(w -> w.file().equals("cgroup.procs")).count());
        assertTrue(Files.notExists(cgroup.resolve("cpu").resolve(be).resolve("hadoop-yarn/container_1_0001_01_000003")));
        assertEquals("0-1,4", Files.readString(cgroup.resolve("cpuset").resolve(be)
                .resolve("hadoop-yarn/container_1_0001_01_000002/cpuset.cpus")), "suppressed with the BE tier");
    }

    /**
     * Memory at 93 % with BEMemoryEvict on: the BE pod is evicted through the executor (memory route), once; the next
     * round is inside the 4 s cool-down and the pod is terminating anyway.
     */
    @Test
    void memoryPressureEvictsTheBePodOnce() throws Exception {
        tree();
        gates = FeatureGates.parse("BEMemoryEvict=true");
        nodeMemory = 30L << 30;
        QoSManager qos = manager("cpuset");
        QoSManager.Round round = qos.runOnce().orElseThrow();
        assertEquals(List.of("pod batch/spark memory BEMemoryEvict"), evicted);
        assertEquals(1, round.evictions().size());
        assertEquals(null, round.evictions().get(0).failure());
        qos.runOnce().orElseThrow();
        assertEquals(1, evicted.size(), "not evicted twice");
        assertEquals(Map.of("eviction-api/BEMemoryEvict/done", 1L), qos.evictionCounts());
    }

    /**
     * BECPUEvict on YARN containers takes the graceful route. The quota holds BE at 2700m. BE uses 3000m: 0.5 for the
     * pod and 1.5 + 1.0 for the two YARN containers. The request is 6000m (3 vcores each). Satisfaction is
     * 2700 / 6000 = 45 % ≤ 60 %, so the release is 6000 × (80 % − 45 %) = 2100m. The busier container covers it. It is
     * not killed: one release asks the broker to hold YARN at the other container's 3000m/1024Mi for 2 minutes.
     */
    @Test
    void yarnContainersChosenForCpuLeaveByAReleaseToTheBroker() throws Exception {
        tree();
        gates = FeatureGates.parse("BECPUEvict=true");
        yarn = List.of(new CollectTargets.YarnTarget("container_1_0001_01_000002", "", List.of(4242), 3, 1024, 0, false),
                new CollectTargets.YarnTarget("container_1_0001_01_000003", "", List.of(4250), 3, 1024, 0, false));
        yarnUsage = Map.of("container_1_0001_01_000002", new Usage(1.5, 1L << 29), "container_1_0001_01_000003", new Usage(1.0, 1L << 29));
        QoSManager qos = manager("cfsQuota");
        qos.runOnce().orElseThrow();
        assertEquals(List.of(), releases, "the CPU evictor cools down for 20 s from its start");
        clock.advance(Duration.ofSeconds(21));
        QoSManager.Round round = qos.runOnce().orElseThrow();
        assertEquals(Map.of("kubernetes.io/batch-cpu", 2100L), round.cpuEvict().strategies().get("BECPUEvict").release(), round.cpuEvict().explain().toString());
        assertEquals(List.of(), evicted, "no container is killed");
        assertEquals(1, releases.size());
        YarnRelease r = releases.get(0);
        assertEquals(new Resources(3000, 1024L << 20), r.limit());
        assertEquals(List.of("container_1_0001_01_000002"), r.containers());
        assertEquals(clock.instant().plusSeconds(120), r.expires());
        assertTrue(r.reason().startsWith("BECPUEvict: "), r.reason());
        assertEquals(Map.of("graceful/BECPUEvict/done", 1L), qos.evictionCounts());

        clock.advance(Duration.ofSeconds(21));
        qos.runOnce().orElseThrow();
        assertEquals(1, releases.size(), "the released container still runs: it is not asked for again");
    }

    /**
     * cgroup v2 with qos.beMemoryHigh: memory.high on the BE root = 32 GiB × 70 % − non-BE use (20 GiB node − 1 GiB of
     * the BE pod) = 24051816810 − 20401094656 = 3650722154 B, in 16 MiB steps 3640655872 B; turned off, it is lifted.
     */
    @Test
    void cgroupV2GetsMemoryHighOnTheBeRootBelowTheEvictionThreshold() throws Exception {
        cgroup = dir.resolve("cgroup2");
        Files.createDirectories(cgroup.resolve(container));
        Files.writeString(cgroup.resolve("cgroup.controllers"), "cpuset cpu memory\n");
        for (String d : List.of(be, pod, container)) {
            Files.writeString(cgroup.resolve(d).resolve("cpuset.cpus"), "0-7\n");
            Files.writeString(cgroup.resolve(d).resolve("cpu.max"), "max 100000\n");
            Files.writeString(cgroup.resolve(d).resolve("memory.high"), "max\n");
        }
        version = CgroupLayout.Version.V2;
        nodeMemory = 20L << 30;
        options = new QoSOptions(false, "", true, QoSOptions.PRESSURE_OFF);
        QoSManager.Round round = manager("cfsQuota").runOnce().orElseThrow();
        assertEquals(3640655872L, round.memoryHigh().highBytes(), round.memoryHigh().explain().toString());
        assertEquals("3640655872", Files.readString(cgroup.resolve(be).resolve("memory.high")));
        assertEquals("max\n", Files.readString(cgroup.resolve(pod).resolve("memory.high")), "only the BE root is limited");

        options = QoSOptions.defaults();
        manager("cfsQuota").runOnce().orElseThrow();
        assertEquals("max", Files.readString(cgroup.resolve(be).resolve("memory.high")), "off: no limit");
    }

    /**
     * Memory some avg10 at 55 % (threshold 40 % for 5 s) while usage is below every percentage threshold: nothing at
     * first, then after 6 s the first BE candidate (the BE pod) is evicted on the memory route.
     */
    @Test
    void aSustainedMemoryPressureStallEvictsTheFirstBeCandidate() throws Exception {
        tree();
        options = new QoSOptions(false, "", false, new MemoryPressureEvict.Settings(true, 40, 5));
        pressure = new HostSample.Pressure(0, 55, 20, 0, 0);
        QoSManager qos = manager("cpuset");
        QoSManager.Round first = qos.runOnce().orElseThrow();
        assertEquals(List.of(), evicted, first.memoryPressureEvict().explain().toString());
        clock.advance(Duration.ofSeconds(6));
        QoSManager.Round round = qos.runOnce().orElseThrow();
        assertEquals(List.of("pod batch/spark memory MemoryPressureEvict"), evicted, round.memoryPressureEvict().explain().toString());
        assertTrue(round.memoryPressureEvict().explain().get(0).startsWith("MemoryPressureEvict: memory some avg10 55.0% ≥ 40.0% for 6 s"),
                round.memoryPressureEvict().explain().toString());
        assertEquals(Map.of("eviction-api/MemoryPressureEvict/done", 1L), qos.evictionCounts());
    }
}
