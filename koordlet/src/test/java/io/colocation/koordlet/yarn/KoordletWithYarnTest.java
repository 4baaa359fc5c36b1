package io.colocation.koordlet.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.koordlet.cgroup.CgroupFileWriter;
import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.Victim;
import io.colocation.koordlet.qos.agent.AgentState;
import io.colocation.koordlet.qos.agent.ClusterEvictions;
import io.colocation.koordlet.qos.agent.QoSManager;
import io.colocation.koordlet.qos.agent.QoSOptions;
import io.colocation.koordlet.qos.agent.StubAgentState;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.nio.file.Files;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.colocation.copilot.YarnCopilotAuxService;
import io.colocation.copilot.api.CopilotApi;
import io.colocation.koordlet.cache.MetricCache;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.HostUsageSource;
import io.colocation.koordlet.collect.MemoryCollectPolicy;
import io.colocation.koordlet.report.NodeMetricStatusBuilder;
import io.colocation.koordlet.report.ReportInputs;
import io.colocation.model.slo.NodeMetric;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.yarn.SleepJobs;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.ContainerManagerImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The koordlet's YARN collection on a real NodeManager with the copilot: a running MapReduce job's containers
 * appear in the {@code hadoop-yarn} host application (measured from their processes, as with the
 * DefaultContainerExecutor they have no cgroup) while it runs, and leave when it ends.
 */
class KoordletWithYarnTest {
    private static final long MI = 1L << 20;
    private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");
    private static MiniYarn yarn;
    private static CopilotClient copilot;

    @BeforeAll
    static void start() throws java.io.IOException {
        yarn = MiniYarn.builder("koordlet-yarn").nodeManagers(1).nodeSize(6144, 8)
                .auxService(CopilotApi.AUX_SERVICE_NAME, YarnCopilotAuxService.class)
                .set(CopilotApi.CONF_PORT, "0")
                .set(CopilotApi.CONF_REFRESH_MS, "200")
                .start();
        ContainerManagerImpl cm = (ContainerManagerImpl) yarn.cluster().getNodeManager(0).getNMContext().getContainerManager();
        String address = StandardCharsets.UTF_8.decode(cm.getAuxServiceMetaData().get(CopilotApi.AUX_SERVICE_NAME)).toString();
        copilot = CopilotClient.create("http://" + address, "", Path.of("/proc"), List.of("yarn"));
    }

    @AfterAll
    static void stop() {
        if (yarn != null) {
            yarn.close();
        }
    }

    @Test
    void aRunningJobIsReportedAsHadoopYarnAndLeavesWhenItEnds(@TempDir Path work) throws Exception {
        HostUsageSource source = new HostUsageSource(Path.of("/proc"), CgroupLayout.detect(Path.of("/sys/fs/cgroup"), "auto", "auto"));
        MetricCache cache = new MetricCache(1, 600, 600);
        Job job = SleepJobs.submit(yarn.config(), 2, 20_000, work);

        HostSample during = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            HostSample s = sample(source, cache);
            if (s.yarnContainers().size() >= 3 && s.yarn().hasCpu()) {
                during = s;
                break;
            }
            Thread.sleep(500);
        }
        assertTrue(during != null, "the AM and two map containers were measured");
        assertTrue(during.yarn().memoryBytes() > 3 * 50 * MI, "three JVMs' resident memory: " + during.yarn());
        NodeMetric.Status status = NodeMetricStatusBuilder.build(cache, new ReportInputs(Instant.now(), Duration.ofSeconds(60), List.of(),
                List.of(), List.of(), "hadoop-yarn", Optional.empty()));
        NodeMetric.HostApplicationMetricInfo app = status.hostApplicationMetric().get(0);
        assertEquals("hadoop-yarn", app.name());
        assertEquals("koord-batch", app.priority());
        assertEquals("BE", app.qos());
        assertTrue(Quantity.getAmountInBytes(app.usage().resources().get("memory")).longValue() > 50 * MI, "" + app);

        long end = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (finalStatus(job) == null && System.nanoTime() < end) {
            Thread.sleep(500);
        }
        assertEquals(FinalApplicationStatus.SUCCEEDED, finalStatus(job), "the job succeeded");
        yarn.awaitContainersDone(SleepJobs.applicationOf(job), Duration.ofSeconds(60));
        HostSample after = null;
        deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            HostSample s = sample(source, cache);
            if (s.yarnContainers().isEmpty()) {
                after = s;
                break;
            }
            Thread.sleep(500);
        }
        assertTrue(after != null, "the containers left the sample once the job ended");
        assertEquals(0, after.yarn().memoryBytes(), "no YARN usage once the job ended (0, not missing: the copilot answered)");
    }

    /**
     * The BE tier on this host's real cgroups with a real NodeManager and copilot: the koordlet's QoS loop puts each
     * running MapReduce container (DefaultContainerExecutor: no cgroup of its own) under
     * {@code kubepods/besteffort/hadoop-yarn/<container>} (although the copilot reports YARN's would-be cgroup); when
     * node memory crosses BEMemoryEvict's threshold (the Node's capacity is lowered to what the host uses: simulated
     * pressure), the loop kills a map container through the copilot, not the ApplicationMaster (ranked last), and the
     * job still completes. Needs root and writable v1/v2
     * cgroups without a kubelet's; removes what it made.
     */
    @Test
    void aMapTaskIsPlacedInItsCgroupAndKilledThroughTheCopilotUnderMemoryPressure(@TempDir Path work) throws Exception {
        CgroupLayout layout = CgroupLayout.detect(CGROUP_ROOT, "auto", "cgroupfs");
        Path probe = layout.version() == CgroupLayout.Version.V2 ? CGROUP_ROOT : CGROUP_ROOT.resolve("cpu");
        assumeTrue(Files.isWritable(probe), "needs root and a writable cgroup mount at " + CGROUP_ROOT);
        String be = layout.qosDir("BestEffort");
        assumeTrue(Files.notExists(probe.resolve("kubepods")), "a kubelet's kubepods cgroup is on this host: not touched");
        CgroupWriter writer = new CgroupFileWriter(layout, Clock.systemUTC(), 200);
        writer.create("kubepods");
        writer.create(be);
        HostUsageSource source = new HostUsageSource(Path.of("/proc"), layout);
        MetricCache cache = new MetricCache(1, 600, 600);
        AtomicReference<HostSample> last = new AtomicReference<>();
        AtomicReference<List<CollectTargets.YarnTarget>> containers = new AtomicReference<>(List.of());
        AtomicLong capacity = new AtomicLong(1L << 40);
        AtomicBoolean pressure = new AtomicBoolean();
        NodeSLO slo = new NodeSLO();
        slo.setSpec(new NodeSLO.Spec(new ObjectMapper().createObjectNode().put("enable", true).put("memoryEvictThresholdPercent", 70)
                .put("memoryEvictLowerPercent", 69),
                null, null, null, null, null));
        AgentState agent = new StubAgentState(() -> {
            Map<String, Quantity> r = Map.of("cpu", new Quantity("2"), "memory", new Quantity(Long.toString(capacity.get())));
            return new NodeBuilder().withNewMetadata().withName("yarn-host").endMetadata().withNewStatus().withCapacity(r)
                    .withAllocatable(r).endStatus().build();
        }, List::of, slo, last::get, () -> Optional.of(containers.get()));
        QoSManager qos = new QoSManager(agent, writer, FeatureGates.parse("BECPUSuppress=false,BEMemoryEvict=true"), QoSOptions.defaults(),
                new ClusterEvictions(null, null, new CopilotListing(copilot, CopilotApi.DEFAULT_CGROUP_PARENT, 5, Clock.systemUTC()), "yarn-host"), List::of, 1,
                Clock.systemUTC());
        Runnable round = () -> {
            containers.set(copilot.runningContainers(CopilotApi.DEFAULT_CGROUP_PARENT).orElse(List.of()));
            last.set(source.collect(new CollectTargets(List.of(), false, List.of(), true, containers.get(),
                    MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE), System.currentTimeMillis()));
            cache.append(last.get());
            if (pressure.get()) {
                // simulated pressure: the Node's memory capacity set so the host's use is 70 % of it (threshold 70 %,
                // lower 69 %): the release, 1 % of capacity, is less than a running map JVM's memory
                capacity.set(last.get().node().memoryBytes() * 100 / 70);
            }
            qos.runOnce();
        };
        Job job = null;
        try {
            job = SleepJobs.submit(yarn.config(), 2, 25_000, work);
            List<CollectTargets.YarnTarget> maps = List.of();
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (maps.size() < 2 && System.nanoTime() < deadline) {
                round.run();
                maps = containers.get().stream().filter(c -> !c.applicationMaster() && !c.pids().isEmpty()
                        && inCgroup(c.pids().get(c.pids().size() - 1), be + "/hadoop-yarn/" + c.containerID())).toList();
                Thread.sleep(500);
            }
            assertEquals(2, maps.size(), "both map containers' processes were moved into their cgroups under the BE tier: "
                    + containers.get());
            for (int i = 0; i < 6; i++) { // the map JVMs start up (their memory, moved with them, is what is measured)
                round.run();
                Thread.sleep(500);
            }

            pressure.set(true);
            List<QoSManager.Eviction> evictions = List.of();
            deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (evictions.isEmpty() && System.nanoTime() < deadline) {
                round.run();
                evictions = qos.last().evictions();
                Thread.sleep(200);
            }
            pressure.set(false);
            capacity.set(1L << 40);
            assertTrue(!evictions.isEmpty(), "BEMemoryEvict evicted: " + qos.last().memoryEvict().explain());
            List<String> mapIds = maps.stream().map(CollectTargets.YarnTarget::containerID).toList();
            for (QoSManager.Eviction e : evictions) {
                assertEquals(Victim.Kind.YarnContainer, e.victim().kind());
                assertEquals("BEMemoryEvict", e.strategy());
                assertEquals(null, e.failure(), "killed through the copilot");
                assertTrue(mapIds.contains(e.victim().name()), "a map container, never the ApplicationMaster: " + e.victim() + "; "
                        + qos.last().memoryEvict().explain());
            }
            assertEquals(Map.of("copilot-kill/BEMemoryEvict/done", (long) evictions.size()), qos.evictionCounts());

            deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (finalStatus(job) == null && System.nanoTime() < deadline) {
                round.run();
                Thread.sleep(500);
            }
            assertEquals(FinalApplicationStatus.SUCCEEDED, finalStatus(job), "the job completes after one map container was killed");
        } finally {
            if (job != null) {
                if (finalStatus(job) == null) {
                    job.killJob();
                }
                yarn.awaitContainersDone(SleepJobs.applicationOf(job), Duration.ofSeconds(60));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!copilot.runningContainers(CopilotApi.DEFAULT_CGROUP_PARENT).orElse(List.of()).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
            round.run(); // removes the cgroups of the finished containers
            qos.close();
            for (String dir : List.of(be + "/hadoop-yarn", be, "kubepods")) {
                assertTrue(writer.remove(dir), "removed " + dir);
            }
        }
    }

    /**
     * The job's outcome as the ResourceManager has it, null while it runs. (The MapReduce client asks the AM, which
     * may already be gone when there is no history server, so a poll can fail with "connection refused".)
     */
    private static FinalApplicationStatus finalStatus(Job job) throws Exception {
        ApplicationId app = SleepJobs.applicationOf(job);
        try (YarnClient client = yarn.newYarnClient()) {
            ApplicationReport report = client.getApplicationReport(app);
            return switch (report.getYarnApplicationState()) {
                case FINISHED, FAILED, KILLED -> report.getFinalApplicationStatus();
                default -> null;
            };
        }
    }

    private static boolean inCgroup(int pid, String dir) {
        try {
            return Files.readString(Path.of("/proc", Integer.toString(pid), "cgroup")).contains("/" + dir + "\n");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static HostSample sample(HostUsageSource source, MetricCache cache) {
        Optional<List<CollectTargets.YarnTarget>> list = copilot.runningContainers(CopilotApi.DEFAULT_CGROUP_PARENT);
        HostSample s = source.collect(new CollectTargets(List.of(), false, List.of(), list.isPresent(), list.orElse(List.of()),
                MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE), System.currentTimeMillis());
        cache.append(s);
        return s;
    }
}
