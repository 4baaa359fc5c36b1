package io.colocation.yarn.plugin;

import static io.colocation.testsupport.Await.until;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.localclusters.spark.SparkOnYarn;
import io.colocation.localclusters.spark.SparkSubmit;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;

/**
 * Real Spark on a MiniYARNCluster whose CapacityScheduler runs the plugin: two NodeManagers of 4 cores / 4 GiB, each
 * granted 4 vcores / 3 GiB as the broker would (the test writes the grants), and the steps a reclaim takes: find a node
 * whose executors all run tasks, shrink its grant one executor below what Spark holds there.
 */
final class SparkOnYarnCluster implements AutoCloseable {
    static final int NODE_MANAGERS = 2;
    /** An executor of 1 core and 512 MiB is a 896 MiB container with Spark's overhead. */
    static final long EXECUTOR_CONTAINER_MB = 896;
    private static final String ROOT = "/colocation";
    private static final String CLUSTER = "spark-yarn";
    private static final long EPOCH = 1;

    private final AtomicLong version = new AtomicLong();
    private final LocalZooKeeper zk;
    private final MiniYarn yarn;
    private final BrokerWrites broker;
    private final Path conf;
    private final List<NodeId> nodes;

    /** A Spark application whose executors all run. */
    record Running(SparkSubmit.Submission submission, ApplicationId app, RMApp rmApp, NodeId amNode) {
    }

    private SparkOnYarnCluster(LocalZooKeeper zk, MiniYarn yarn, Path conf) throws Exception {
        this.zk = zk;
        this.yarn = yarn;
        this.conf = conf;
        this.broker = new BrokerWrites(zk.newClient(), ROOT, CLUSTER);
        broker.epoch(EPOCH);
        this.nodes = yarn.runningNodes().stream().map(NodeReport::getNodeId).sorted().toList();
        grantEveryNode();
    }

    /** Every node granted 4 vcores / 3 GiB, and applied. */
    void grantEveryNode() throws Exception {
        for (NodeId node : nodes) {
            grant(node, 4, 3072);
        }
        until(Duration.ofSeconds(10), () -> nodes.stream().allMatch(n -> total(n).getVirtualCores() == 4 && total(n).getMemorySize() == 3072));
    }

    static SparkOnYarnCluster start(Path work) throws Exception {
        Path conf = Files.createDirectories(work.resolve("conf"));
        LocalZooKeeper zk = new LocalZooKeeper();
        try {
            MiniYarn yarn = PluginInstall.into(MiniYarn.builder("spark-on-yarn").nodeManagers(NODE_MANAGERS).nodeSize(4096, 4)
                            .mapReduce(false).configDir(conf), zk.connectString(), CLUSTER)
                    .set(PluginSettings.INTERVAL, "200")
                    .set(PluginSettings.REPORT_REFRESH, "1000")
                    .set(PluginSettings.WAIT_BEFORE_KILL, "1500")
                    .start();
            try {
                return new SparkOnYarnCluster(zk, yarn, conf);
            } catch (Exception e) {
                yarn.close();
                throw e;
            }
        } catch (Exception e) {
            zk.close();
            throw e;
        }
    }

    MiniYarn yarn() {
        return yarn;
    }

    /** Submits the word count ({@code partitions} tasks of {@code taskMillis}) and waits until its executors all run. */
    Running submit(Path work, int executors, int partitions, long taskMillis) throws Exception {
        SparkSubmit.Submission spark = SparkOnYarn.submit(conf, work, SparkOnYarn.settings(work, executors, Map.of()), partitions, taskMillis);
        try {
            until(Duration.ofSeconds(120), () -> !spark.process().isAlive() || SparkOnYarn.applicationId(spark).isPresent()
                    && countExecutors(ApplicationId.fromString(SparkOnYarn.applicationId(spark).get()), null) == executors);
        } catch (TimeoutException e) {
            throw new AssertionError("Spark's " + executors + " executors never all ran; spark-submit log:\n" + Files.readString(spark.log()), e);
        }
        if (!spark.process().isAlive()) {
            throw new AssertionError("spark-submit ended before its executors ran; log:\n" + Files.readString(spark.log()));
        }
        ApplicationId app = ApplicationId.fromString(SparkOnYarn.applicationId(spark).orElseThrow());
        RMApp rmApp = yarn.resourceManager().getRMContext().getRMApps().get(app);
        return new Running(spark, app, rmApp, rmApp.getCurrentAppAttempt().getMasterContainer().getNodeId());
    }

    /**
     * Online load takes back a node's room once every executor there runs tasks (another node than the driver's where
     * there is one): its grant falls one executor below what Spark holds there, nothing kept. Returns that node.
     */
    NodeId reclaimOneExecutor(Running spark) throws Exception {
        AtomicReference<NodeId> busy = new AtomicReference<>();
        until(Duration.ofSeconds(90), () -> {
            for (NodeId n : nodes) {
                int executors = countExecutors(spark.app(), n);
                if (executors > 0 && executorsRunningTasks(spark.app(), n) == executors
                        && (busy.get() == null || !n.equals(spark.amNode()))) {
                    busy.set(n);
                }
            }
            return busy.get() != null;
        });
        NodeId shrunk = busy.get();
        Resource allocated = yarn.resourceManager().getResourceScheduler().getSchedulerNode(shrunk).getAllocatedResource();
        grant(shrunk, allocated.getVirtualCores() - 1, allocated.getMemorySize() - EXECUTOR_CONTAINER_MB);
        return shrunk;
    }

    private void grant(NodeId node, int vcores, long memoryMB) throws Exception {
        broker.grant(new YarnGrant(node.toString(), EPOCH, version.incrementAndGet(), vcores, memoryMB, System.currentTimeMillis()));
    }

    private Resource total(NodeId node) {
        SchedulerNode sn = yarn.resourceManager().getResourceScheduler().getSchedulerNode(node);
        return sn == null ? Resource.newInstance(-1, -1) : sn.getTotalResource();
    }

    /** The application's executors on a node whose log says they were given a task (the executor registered and works). */
    private int executorsRunningTasks(ApplicationId app, NodeId node) {
        int n = 0;
        for (RMContainer c : yarn.runningTaskContainers(app, node)) {
            for (int i = 0; i < NODE_MANAGERS; i++) {
                for (String dir : yarn.cluster().getNodeManager(i).getConfig().getTrimmedStrings("yarn.nodemanager.log-dirs")) {
                    Path stderr = Path.of(dir, app.toString(), c.getContainerId().toString(), "stderr");
                    try {
                        if (Files.isRegularFile(stderr) && Files.readString(stderr).contains("Got assigned task")) {
                            n++;
                        }
                    } catch (IOException e) {
                        // not written yet
                    }
                }
            }
        }
        return n;
    }

    /** Running non-AM containers of the application, on one node or on all (null). */
    private int countExecutors(ApplicationId app, NodeId node) {
        return yarn.runningTaskContainers(app, node).size();
    }

    @Override
    public void close() throws IOException {
        try {
            yarn.close();
        } finally {
            zk.close();
        }
    }
}
