package io.colocation.koordlet.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.colocation.testsupport.yarn.MiniYarn;
import io.colocation.testsupport.yarn.SleepJobs;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.mapreduce.Job;
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
    private static MiniYarn yarn;
    private static CopilotClient copilot;

    @BeforeAll
    static void start() {
        yarn = MiniYarn.builder("koordlet-yarn").nodeManagers(1).nodeSize(6144, 8)
                .auxService(CopilotApi.AUX_SERVICE_NAME, YarnCopilotAuxService.class)
                .set(CopilotApi.CONF_PORT, "0")
                .set(CopilotApi.CONF_REFRESH_MS, "200")
                .start();
        ContainerManagerImpl cm = (ContainerManagerImpl) yarn.cluster().getNodeManager(0).getNMContext().getContainerManager();
        String address = StandardCharsets.UTF_8.decode(cm.getAuxServiceMetaData().get(CopilotApi.AUX_SERVICE_NAME)).toString();
        copilot = new CopilotClient("http://" + address, null);
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

        assertTrue(job.waitForCompletion(false), "the job succeeded");
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

    private static HostSample sample(HostUsageSource source, MetricCache cache) {
        Optional<List<CollectTargets.YarnTarget>> list = copilot.runningContainers();
        HostSample s = source.collect(new CollectTargets(List.of(), false, List.of(), list.isPresent(), list.orElse(List.of()),
                MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE), System.currentTimeMillis());
        cache.append(s);
        return s;
    }
}
