package io.colocation.yarn.plugin;

import static io.colocation.testsupport.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.localclusters.spark.SparkOnYarn;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real Spark 3.5 on reclaimed capacity: a word count with a shuffle submitted in cluster mode to a real
 * MiniYARNCluster whose CapacityScheduler runs the plugin, executors placed within the grants the test writes as the
 * broker would. When online load takes a node's room back (its grant shrinks below what Spark holds there, nothing
 * kept), the plugin preempts one executor gracefully: the RM records exit status PREEMPTED, Spark counts none of the
 * lost tasks as failures, the ApplicationMaster (the driver) is never chosen, and the job's answer is right.
 * Tagged {@code spark}: the Hadoop 3.5 pass leaves it out (Spark 3.5 brings its own Hadoop 3.3 client).
 */
@Tag("spark")
class SparkOnYarnTest {
    private static final String ROOT = "/colocation";
    private static final String CLUSTER = "spark-yarn";
    private static final long EPOCH = 1;
    private static final int NODE_MANAGERS = 2;
    private final AtomicLong version = new AtomicLong();

    @Test
    void anExecutorPreemptedByAShrinkIsNotATaskFailureAndTheJobFinishesRight(@TempDir Path work) throws Exception {
        Path conf = Files.createDirectories(work.resolve("conf"));
        try (LocalZooKeeper zk = new LocalZooKeeper();
                MiniYarn yarn = PluginInstall.into(MiniYarn.builder("spark-on-yarn").nodeManagers(NODE_MANAGERS).nodeSize(4096, 4)
                        .mapReduce(false).configDir(conf), zk.connectString(), CLUSTER)
                        .set(PluginSettings.INTERVAL, "200")
                        .set(PluginSettings.REPORT_REFRESH, "1000")
                        .set(PluginSettings.WAIT_BEFORE_KILL, "1500")
                        .start()) {
            CuratorFramework curator = zk.newClient();
            BrokerWrites broker = new BrokerWrites(curator, ROOT, CLUSTER);
            broker.epoch(EPOCH);
            List<NodeId> nodes = yarn.runningNodes().stream().map(NodeReport::getNodeId).sorted().toList();
            for (NodeId node : nodes) {
                grant(broker, node, 4, 3072);
            }
            until(Duration.ofSeconds(10), () -> nodes.stream().allMatch(n -> total(yarn, n).getVirtualCores() == 4
                    && total(yarn, n).getMemorySize() == 3072));

            // 3 executors of 1 core and 512 MiB (896 MiB containers with Spark's overhead) and the driver in the AM.
            SparkOnYarn.Submission spark = SparkOnYarn.submit(conf, work, SparkOnYarn.settings(work, 3, Map.of()), 24, 3_000);
            try {
                until(Duration.ofSeconds(120), () -> !spark.process().isAlive() || spark.applicationId().isPresent()
                        && countExecutors(yarn, ApplicationId.fromString(spark.applicationId().get()), null) == 3);
            } catch (TimeoutException e) {
                throw new AssertionError("Spark's 3 executors never all ran; spark-submit log:\n" + Files.readString(spark.log()), e);
            }
            assertTrue(spark.process().isAlive(), "spark-submit ended before its executors ran; log:\n" + Files.readString(spark.log()));
            ApplicationId app = ApplicationId.fromString(spark.applicationId().orElseThrow());
            RMApp rmApp = yarn.resourceManager().getRMContext().getRMApps().get(app);
            NodeId amNode = rmApp.getCurrentAppAttempt().getMasterContainer().getNodeId();

            // Online load takes back a node's room once every executor there runs tasks: its grant falls one executor
            // below what Spark holds there.
            AtomicReference<NodeId> busy = new AtomicReference<>();
            until(Duration.ofSeconds(90), () -> {
                for (NodeId n : nodes) {
                    int executors = countExecutors(yarn, app, n);
                    if (executors > 0 && executorsRunningTasks(yarn, app, n) == executors && (busy.get() == null || !n.equals(amNode))) {
                        busy.set(n);
                    }
                }
                return busy.get() != null;
            });
            NodeId shrunk = busy.get();
            SchedulerNode sn = yarn.resourceManager().getResourceScheduler().getSchedulerNode(shrunk);
            int vcores = sn.getAllocatedResource().getVirtualCores() - 1;
            long memory = sn.getAllocatedResource().getMemorySize() - 896;
            grant(broker, shrunk, vcores, memory);

            int exit = spark.await(5, TimeUnit.MINUTES);
            assertEquals(0, exit, "spark-submit reports the application's success; log " + spark.log());
            Map<String, String> result = SparkOnYarn.result(work).orElseThrow(() -> new AssertionError("the driver wrote no result"));
            assertEquals("true", result.get("correct"), "the word count is right after the preemption: " + result);
            assertEquals("0", result.get("failedTasksCounted"), "PREEMPTED is no task failure to Spark: " + result);
            assertTrue(Integer.parseInt(result.get("failedTasksNotCounted")) >= 1, "the preempted executor's tasks ended lost, not"
                    + " failed: " + result);
            assertTrue(Integer.parseInt(result.get("executorsRemoved")) >= 1, "Spark saw its executor go: " + result);
            RMAppAttemptMetrics metrics = rmApp.getCurrentAppAttempt().getRMAppAttemptMetrics();
            assertTrue(metrics.getNumNonAMContainersPreempted() >= 1, "the RM recorded an executor preempted (exit status PREEMPTED)");
            assertFalse(metrics.getIsPreempted(), "the ApplicationMaster (Spark's driver) was not preempted");
            assertEquals(1, rmApp.getAppAttempts().size(), "one application attempt");
            System.out.printf("Spark on YARN: %s, %d executor(s) preempted%n", result, metrics.getNumNonAMContainersPreempted());
        }
    }

    private void grant(BrokerWrites broker, NodeId node, int vcores, long memoryMB) throws Exception {
        broker.grant(new YarnGrant(node.toString(), EPOCH, version.incrementAndGet(), vcores, memoryMB, System.currentTimeMillis()));
    }

    private static org.apache.hadoop.yarn.api.records.Resource total(MiniYarn yarn, NodeId node) {
        SchedulerNode sn = yarn.resourceManager().getResourceScheduler().getSchedulerNode(node);
        return sn == null ? org.apache.hadoop.yarn.api.records.Resource.newInstance(-1, -1) : sn.getTotalResource();
    }

    /** The application's executors on a node whose log says they were given a task (the executor registered and works). */
    private static int executorsRunningTasks(MiniYarn yarn, ApplicationId app, NodeId node) {
        int n = 0;
        for (RMContainer c : executors(yarn, app, node)) {
            for (int i = 0; i < NODE_MANAGERS; i++) {
                for (String dir : yarn.cluster().getNodeManager(i).getConfig().getTrimmedStrings("yarn.nodemanager.log-dirs")) {
                    Path stderr = Path.of(dir, app.toString(), c.getContainerId().toString(), "stderr");
                    try {
                        if (Files.isRegularFile(stderr) && Files.readString(stderr).contains("Got assigned task")) {
                            n++;
                        }
                    } catch (java.io.IOException e) {
                        // not written yet
                    }
                }
            }
        }
        return n;
    }

    /** Running non-AM containers of the application, on one node or on all. */
    private static int countExecutors(MiniYarn yarn, ApplicationId app, NodeId node) {
        int n = 0;
        for (NodeId id : yarn.resourceManager().getRMContext().getRMNodes().keySet()) {
            if (node == null || node.equals(id)) {
                n += executors(yarn, app, id).size();
            }
        }
        return n;
    }

    /** The application's running non-AM containers on one node. */
    private static List<RMContainer> executors(MiniYarn yarn, ApplicationId app, NodeId node) {
        SchedulerNode sn = yarn.resourceManager().getResourceScheduler().getSchedulerNode(node);
        if (sn == null) {
            return List.of();
        }
        return sn.getCopiedListOfRunningContainers().stream()
                .filter(c -> c.getApplicationAttemptId().getApplicationId().equals(app) && !c.isAMContainer()).toList();
    }
}
