package io.colocation.yarn.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnApplications;
import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnDemand;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnGrantAck;
import io.colocation.api.yarn.YarnNodeReport;
import io.colocation.testsupport.yarn.JobResult;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.yarn.SleepJobs;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import static io.colocation.testsupport.Await.until;

/**
 * The plugin installed by configuration only into a real MiniYARNCluster's ResourceManager (stock
 * CapacityScheduler), reading grants from a real ZooKeeper that the test writes as the broker would.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GrantEnforcementTest {
    private static final String ROOT = "/colocation";
    private static final String CLUSTER = "test-yarn";
    private static final long EPOCH = 3;
    private static final AtomicLong VERSION = new AtomicLong();

    private static LocalZooKeeper zk;
    private static CuratorFramework curator;
    private static MiniYarn yarn;
    private static BrokerWrites broker;

    @BeforeAll
    static void start() throws Exception {
        zk = new LocalZooKeeper();
        curator = zk.newClient();
        broker = new BrokerWrites(curator, ROOT, CLUSTER);
        broker.epoch(EPOCH);
        yarn = PluginInstall.into(MiniYarn.builder("grant-enforcement").nodeManagers(2).nodeSize(4096, 4)
                        .restartableResourceManager(), zk.connectString(), CLUSTER)
                .set(PluginSettings.INTERVAL, "200")
                .set(PluginSettings.REPORT_REFRESH, "1000")
                .set(PluginSettings.WAIT_BEFORE_KILL, "1500")
                .start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (yarn != null) {
            yarn.close();
        }
        if (zk != null) {
            zk.close();
        }
    }

    @Test
    @Order(1)
    void aGrantBecomesTheNodeCapacityWithinOneSecondAndIsAcknowledged() throws Exception {
        NodeId node = nodes().get(0);
        long version = VERSION.incrementAndGet();
        long written = System.nanoTime();
        broker.grant(new YarnGrant(node.toString(), EPOCH, version, 2, 1536, System.currentTimeMillis()));
        try (YarnClient client = yarn.newYarnClient()) {
            until(Duration.ofSeconds(10), () -> capacity(client, node).equals(Resource.newInstance(1536, 2)));
        }
        long millis = (System.nanoTime() - written) / 1_000_000;
        assertTrue(millis < 1000, "the RM applied the grant after " + millis + " ms");

        AtomicReference<YarnGrantAck> ack = new AtomicReference<>();
        until(Duration.ofSeconds(5), () -> {
            ack.set(broker.read(YarnContract.ackPath(ROOT, CLUSTER, node.toString()), YarnGrantAck.class));
            return ack.get() != null && ack.get().version() == version;
        });
        assertEquals(EPOCH, ack.get().epoch());
        assertEquals(2, ack.get().vcores());
        assertEquals(1536, ack.get().memoryMB());

        YarnNodeReport report = broker.read(YarnContract.nodeReportPath(ROOT, CLUSTER, node.toString()), YarnNodeReport.class);
        assertNotNull(report, "the plugin reports every node's allocation");
        assertEquals(0, report.runningContainers());
        // JMX values are cached for the metrics period (10 s by default).
        until(Duration.ofSeconds(15), () -> jmx("GrantsApplied") >= 1);
    }

    @Test
    @Order(2)
    void aGrantFromAnOlderBrokerEpochIsIgnored() throws Exception {
        NodeId node = nodes().get(1);
        broker.grant(new YarnGrant(node.toString(), EPOCH, VERSION.incrementAndGet(), 3, 2048, System.currentTimeMillis()));
        try (YarnClient client = yarn.newYarnClient()) {
            until(Duration.ofSeconds(10), () -> capacity(client, node).equals(Resource.newInstance(2048, 3)));
            long staleBefore = jmx("GrantsIgnoredStaleEpoch");
            // A deposed leader (epoch 2) still writing, with a version far ahead.
            broker.grant(new YarnGrant(node.toString(), EPOCH - 1, 1_000, 4, 4096, System.currentTimeMillis()));
            until(Duration.ofSeconds(15), () -> jmx("GrantsIgnoredStaleEpoch") > staleBefore);
            Thread.sleep(600);
            assertEquals(Resource.newInstance(2048, 3), capacity(client, node));
        }
    }

    @Test
    @Order(3)
    void aJobRunsWithinTheGrantsAndAShrinkPreemptsOneTaskGracefully(@TempDir Path work) throws Exception {
        List<NodeId> nodes = nodes();
        for (NodeId node : nodes) {
            broker.grant(new YarnGrant(node.toString(), EPOCH, VERSION.incrementAndGet(), 4, 2048, System.currentTimeMillis()));
        }
        until(Duration.ofSeconds(10), () -> nodes.stream().allMatch(n -> total(n).equals(Resource.newInstance(2048, 4))));

        // Sample the scheduler while the job ramps up: no node ever holds more than its grant.
        List<String> violations = new ArrayList<>();
        Job job = SleepJobs.submit(yarn.config(), 9, 15_000, work);
        ApplicationId app = SleepJobs.applicationOf(job);
        AtomicReference<YarnDemand> demand = new AtomicReference<>();
        until(Duration.ofSeconds(60), () -> {
            for (NodeId n : nodes) {
                SchedulerNode sn = schedulerNode(n);
                if (sn.getAllocatedResource().getVirtualCores() > 4 || sn.getAllocatedResource().getMemorySize() > 2048) {
                    violations.add(n + " holds " + sn.getAllocatedResource());
                }
            }
            demand.set(broker.read(YarnContract.demandPath(ROOT, CLUSTER), YarnDemand.class));
            return nodes.stream().mapToInt(n -> schedulerNode(n).getNumContainers()).sum() == 8
                    && demand.get() != null && demand.get().pendingVcores() >= 1;
        });
        assertEquals(List.of(), violations);
        assertTrue(demand.get().pendingMemoryMB() >= 256, "9 maps on 7 task slots leave demand: " + demand.get());
        assertTrue(demand.get().partitions().containsKey(""), "demand per partition: " + demand.get());

        // A grant below the allocation that keeps it: the node takes nothing new, nothing running is preempted.
        NodeId shrunk = nodes.stream().filter(n -> schedulerNode(n).getNumContainers() == 4).findFirst().orElseThrow();
        long preemptedBefore = jmx("ContainersPreempted");
        broker.grant(new YarnGrant(shrunk.toString(), EPOCH, VERSION.incrementAndGet(), 3, 2048, System.currentTimeMillis(), 4, 2048));
        until(Duration.ofSeconds(10), () -> total(shrunk).equals(Resource.newInstance(2048, 3)));
        Thread.sleep(2_500); // past wait-before-kill (1.5 s) at the plugin's 200 ms interval
        assertEquals(4, schedulerNode(shrunk).getNumContainers(), "what the grant keeps runs on");
        assertEquals(preemptedBefore, jmx("ContainersPreempted"), "nothing kept is preempted");

        // Shrink one node by one vcore below its allocation, keeping nothing: exactly one task container must go.
        broker.grant(new YarnGrant(shrunk.toString(), EPOCH, VERSION.incrementAndGet(), 3, 2048, System.currentTimeMillis()));
        until(Duration.ofSeconds(20), () -> schedulerNode(shrunk).getAllocatedResource().getVirtualCores() <= 3);
        // the broker's Batch workloads view: the application, what it holds, and the preemption
        String appsPath = YarnContract.applicationsPath(ROOT, CLUSTER);
        AtomicReference<YarnApplications.Application> listed = new AtomicReference<>();
        until(Duration.ofSeconds(10), () -> {
            YarnApplications apps = broker.read(appsPath, YarnApplications.class);
            listed.set(apps == null ? null : apps.applications().stream()
                    .filter(a -> a.applicationId().equals(app.toString())).findFirst().orElse(null));
            return listed.get() != null && listed.get().preemptedContainers() == 1;
        });
        assertEquals("MAPREDUCE", listed.get().type(), listed.get().toString());
        assertTrue(listed.get().containers() >= 2 && listed.get().vcores() >= 2, "the AM and running maps: " + listed.get());

        JobResult result = JobResult.await(yarn, job, Duration.ofMinutes(3));
        assertTrue(result.succeeded(), "the job survives preemption: " + result);
        assertEquals(0, result.failedMaps(), "PREEMPTED is not a task failure");
        assertEquals(1, result.killedMaps(), "exactly one map attempt was preempted");
        RMAppAttemptMetrics metrics = yarn.resourceManager().getRMContext().getRMApps().get(app)
                .getCurrentAppAttempt().getRMAppAttemptMetrics();
        assertEquals(1, metrics.getNumNonAMContainersPreempted(), "the RM recorded exit status PREEMPTED");
        assertFalse(metrics.getIsPreempted(), "the ApplicationMaster was not preempted");
        until(Duration.ofSeconds(15), () -> jmx("ContainersPreempted") == preemptedBefore + 1);
    }

    @Test
    @Order(4)
    void withEveryGrantAtZeroVcoresARequestWaitsInsteadOfBeingRejected(@TempDir Path work) throws Exception {
        List<NodeId> nodes = nodes();
        for (NodeId node : nodes) {
            broker.grant(new YarnGrant(node.toString(), EPOCH, VERSION.incrementAndGet(), 0, 2048, System.currentTimeMillis()));
        }
        until(Duration.ofSeconds(10), () -> nodes.stream().allMatch(n -> total(n).equals(Resource.newInstance(2048, 0))));
        Resource configured = Resource.newInstance(yarn.config().getInt("yarn.scheduler.maximum-allocation-mb", 8192),
                yarn.config().getInt("yarn.scheduler.maximum-allocation-vcores", 4));
        assertEquals(configured, yarn.resourceManager().getResourceScheduler().getMaximumResourceCapability(),
                "YARN would cap requests at the largest grant, <memory:2048, vCores:0>");

        Job job = SleepJobs.submit(yarn.config(), 1, 1_000, work);
        ApplicationId app = SleepJobs.applicationOf(job);
        Thread.sleep(3_000);
        try (YarnClient client = yarn.newYarnClient()) {
            assertEquals(org.apache.hadoop.yarn.api.records.YarnApplicationState.ACCEPTED,
                    client.getApplicationReport(app).getYarnApplicationState(), "the application waits for vcores");
        }
        for (NodeId node : nodes) {
            broker.grant(new YarnGrant(node.toString(), EPOCH, VERSION.incrementAndGet(), 4, 2048, System.currentTimeMillis()));
        }
        try (YarnClient client = yarn.newYarnClient()) {
            until(Duration.ofSeconds(60), () -> {
                try {
                    return client.getApplicationReport(app).getYarnApplicationState()
                            == org.apache.hadoop.yarn.api.records.YarnApplicationState.RUNNING;
                } catch (Exception e) {
                    return false;
                }
            });
        }
        job.killJob(); // it runs once Batch is back; its end is not this test's concern
        yarn.awaitContainersDone(app, Duration.ofSeconds(60));
    }

    @Test
    @Order(5)
    void aRestartedResourceManagerGetsTheGrantsBack() throws Exception {
        NodeId node = nodes().get(0);
        broker.grant(new YarnGrant(node.toString(), EPOCH, VERSION.incrementAndGet(), 1, 1024, System.currentTimeMillis()));
        until(Duration.ofSeconds(10), () -> total(node).equals(Resource.newInstance(1024, 1)));

        yarn.cluster().restartResourceManager(0);
        until(Duration.ofSeconds(60), () -> {
            SchedulerNode sn = yarn.resourceManager().getResourceScheduler().getSchedulerNode(node);
            return sn != null && sn.getTotalResource().equals(Resource.newInstance(1024, 1));
        });
        try (YarnClient client = yarn.newYarnClient()) {
            until(Duration.ofSeconds(10), () -> capacity(client, node).equals(Resource.newInstance(1024, 1)));
        }
    }

    // --- helpers ---

    private static List<NodeId> nodes() throws Exception {
        return yarn.runningNodes().stream().map(NodeReport::getNodeId).sorted().toList();
    }

    private static Resource capacity(YarnClient client, NodeId node) {
        try {
            return client.getNodeReports().stream().filter(r -> r.getNodeId().equals(node)).findFirst()
                    .map(NodeReport::getCapability).orElse(Resource.newInstance(-1, -1));
        } catch (Exception e) {
            return Resource.newInstance(-1, -1);
        }
    }

    private static SchedulerNode schedulerNode(NodeId node) {
        return yarn.resourceManager().getResourceScheduler().getSchedulerNode(node);
    }

    private static Resource total(NodeId node) {
        SchedulerNode sn = schedulerNode(node);
        return sn == null ? Resource.newInstance(-1, -1) : sn.getTotalResource();
    }

    private static long jmx(String attribute) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            Set<ObjectName> names = server.queryNames(new ObjectName("Hadoop:*,name=" + PluginMetrics.SOURCE), null);
            assertEquals(1, names.size(), "one " + PluginMetrics.SOURCE + " MBean: " + names);
            return ((Number) server.getAttribute(names.iterator().next(), attribute)).longValue();
        } catch (javax.management.JMException e) {
            throw new IllegalStateException("cannot read " + attribute + " from JMX", e);
        }
    }
}
