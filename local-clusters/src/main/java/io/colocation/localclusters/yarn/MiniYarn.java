package io.colocation.localclusters.yarn;

import io.colocation.localclusters.LoopbackPorts;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocol;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real YARN on this machine: the shaded {@link MiniYARNCluster} (one ResourceManager with the
 * CapacityScheduler unless told otherwise, N NodeManagers with DefaultContainerExecutor) configured so
 * that MapReduce jobs run in real container JVMs, stops in seconds, and writes its configuration where
 * ApplicationMasters look for it. Its servers bind port 0 unless a ResourceManager must come back on its port
 * (restart, HA): those ports are picked outside the ephemeral range and the start is retried on a bind failure.
 * Hadoop's process-wide queue metrics are cleared before a start and after a stop, so a cluster (even one that
 * failed) leaves nothing that breaks the next one in the same JVM.
 */
public final class MiniYarn implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(MiniYarn.class);

    private final MiniYARNCluster cluster;
    private final int nodeManagers;
    private final List<Path> writtenConfigs;

    private MiniYarn(MiniYARNCluster cluster, int nodeManagers, List<Path> writtenConfigs) {
        this.cluster = cluster;
        this.nodeManagers = nodeManagers;
        this.writtenConfigs = writtenConfigs;
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public MiniYARNCluster cluster() {
        return cluster;
    }

    /** The running cluster's configuration (RM addresses filled in); a copy, safe to modify. */
    public Configuration config() {
        return new YarnConfiguration(cluster.getConfig());
    }

    /** The active ResourceManager (the only one without HA). */
    public ResourceManager resourceManager() {
        return cluster.getResourceManager(activeResourceManager());
    }

    /** The index of the active ResourceManager; waits up to the ZooKeeper timeout for one to be active. */
    public int activeResourceManager() {
        int index = cluster.getActiveRMIndex();
        if (index < 0) {
            throw new IllegalStateException("no ResourceManager of " + cluster.getName() + " is active");
        }
        return index;
    }

    /**
     * Stops the active ResourceManager of an HA cluster and waits until another one is active (elected
     * through ZooKeeper as in production); returns the new active index. The stopped one stays down until
     * {@link MiniYARNCluster#restartResourceManager(int)}.
     */
    public int failOver(Duration timeout) throws InterruptedException {
        int old = activeResourceManager();
        if (cluster.getNumOfResourceManager() < 2) {
            throw new IllegalStateException("failOver needs a cluster with highAvailability()");
        }
        cluster.stopResourceManager(old);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < cluster.getNumOfResourceManager(); i++) {
                ResourceManager rm = cluster.getResourceManager(i);
                if (i != old && rm != null && rm.getRMContext().getHAServiceState() == HAServiceState.ACTIVE) {
                    LOG.info("ResourceManager {} is active after rm{} stopped", i, old);
                    return i;
                }
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("no ResourceManager became active within " + timeout.toSeconds()
                + " s after rm" + old + " stopped");
    }

    /**
     * The application's running containers other than its ApplicationMaster (its tasks, a Spark application's
     * executors), as the active ResourceManager's scheduler holds them: on {@code node}, or on every node when null.
     */
    public List<RMContainer> runningTaskContainers(ApplicationId app, NodeId node) {
        ResourceScheduler scheduler = resourceManager().getResourceScheduler();
        List<RMContainer> running = new ArrayList<>();
        for (NodeId id : resourceManager().getRMContext().getRMNodes().keySet()) {
            SchedulerNode sn = node == null || node.equals(id) ? scheduler.getSchedulerNode(id) : null;
            if (sn != null) {
                sn.getCopiedListOfRunningContainers().stream()
                        .filter(c -> c.getApplicationAttemptId().getApplicationId().equals(app) && !c.isAMContainer())
                        .forEach(running::add);
            }
        }
        return running;
    }

    /**
     * Waits until every container of {@code app} on this cluster's NodeManagers is done, its process exited. An
     * ApplicationMaster writes the job's history into its staging directory and removes that directory after it
     * reports the job finished (or killed): a test that deletes the directory it gave a job waits for this first.
     * (A NodeManager started apart from this cluster, such as a {@code NodeManagerProcess}, is not looked at.)
     */
    public void awaitContainersDone(ApplicationId app, Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> live = liveContainers(app);
        while (!live.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(app + " still has containers after " + timeout.toSeconds() + " s: " + live);
            }
            Thread.sleep(100);
            live = liveContainers(app);
        }
    }

    private List<String> liveContainers(ApplicationId app) {
        List<String> live = new ArrayList<>();
        for (int i = 0; i < nodeManagers; i++) {
            for (Container c : cluster.getNodeManager(i).getNMContext().getContainers().values()) {
                if (c.getContainerId().getApplicationAttemptId().getApplicationId().equals(app)
                        && c.getContainerState() != ContainerState.DONE) {
                    live.add(c.getContainerId() + " " + c.getContainerState());
                }
            }
        }
        return live;
    }

    /** A started client; the caller closes it. */
    public YarnClient newYarnClient() {
        YarnClient client = YarnClient.createYarnClient();
        client.init(config());
        client.start();
        return client;
    }

    /** The RM admin protocol proxy (the one {@code yarn rmadmin -updateNodeResource} uses). */
    public ResourceManagerAdministrationProtocol adminProtocol() throws IOException {
        return ClientRMProxy.createRMProxy(config(), ResourceManagerAdministrationProtocol.class);
    }

    /** Sets a node's total capacity through the RM admin protocol. */
    public void updateNodeResource(NodeId node, Resource capacity) throws IOException, YarnException {
        ResourceManagerAdministrationProtocol admin = adminProtocol();
        try {
            admin.updateNodeResource(UpdateNodeResourceRequest.newInstance(
                    Map.of(node, ResourceOption.newInstance(capacity, -1))));
        } finally {
            org.apache.hadoop.ipc.RPC.stopProxy(admin);
        }
    }

    /** The RUNNING nodes as the RM reports them to clients. */
    public List<NodeReport> runningNodes() throws IOException, YarnException {
        try (YarnClient client = newYarnClient()) {
            return client.getNodeReports(NodeState.RUNNING);
        }
    }

    @Override
    public void close() {
        cluster.stop();
        ConfigFiles.deleteAll(writtenConfigs);
        QueueMetrics.clearQueueMetrics();
    }

    /** Builder: sizes, scheduler, aux services and any extra property. */
    public static final class Builder {
        private final String name;
        private int nodeManagers = 1;
        private int nodeMemoryMb = 4096;
        private int nodeVcores = 4;
        private boolean mapReduce = true;
        private Path configDir;
        private final Map<String, String> auxServices = new LinkedHashMap<>();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private Duration nodeManagerTimeout = Duration.ofSeconds(60);
        private int resourceManagers = 1;
        /** RM ids whose addresses are fixed ports picked at start ("" for the one RM of a restartable cluster). */
        private List<String> fixedPortRms = List.of();
        private static final List<String> RM_ADDRESS_KEYS = List.of(YarnConfiguration.RM_ADDRESS,
                YarnConfiguration.RM_SCHEDULER_ADDRESS, YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS,
                YarnConfiguration.RM_ADMIN_ADDRESS, YarnConfiguration.RM_WEBAPP_ADDRESS);

        private Builder(String name) {
            this.name = name;
        }

        public Builder nodeManagers(int count) {
            this.nodeManagers = count;
            return this;
        }

        /** Every NodeManager's memory and vcores as it registers (change a node later with updateNodeResource). */
        public Builder nodeSize(int memoryMb, int vcores) {
            this.nodeMemoryMb = memoryMb;
            this.nodeVcores = vcores;
            return this;
        }

        /** The RM scheduler class ({@code yarn.resourcemanager.scheduler.class}). */
        public Builder scheduler(Class<?> schedulerClass) {
            return set(YarnConfiguration.RM_SCHEDULER, schedulerClass.getName());
        }

        /** An aux service on every NodeManager; the name must match {@code [A-Za-z_][A-Za-z0-9_]*}. */
        public Builder auxService(String serviceName, Class<?> serviceClass) {
            if (!serviceName.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("aux service name '" + serviceName
                        + "' must match [A-Za-z_][A-Za-z0-9_]*");
            }
            auxServices.put(serviceName, serviceClass.getName());
            return this;
        }

        /** Whether to configure MapReduce (shuffle aux service, container classpath); default true. */
        public Builder mapReduce(boolean enabled) {
            this.mapReduce = enabled;
            return this;
        }

        /** Where yarn-site.xml is written for ApplicationMasters; default: the first classpath directory. */
        public Builder configDir(Path dir) {
            this.configDir = dir;
            return this;
        }

        public Builder set(String key, String value) {
            properties.put(key, value);
            return this;
        }

        /**
         * Makes {@link MiniYARNCluster#restartResourceManager(int)} behave like a real RM restart: fixed
         * (free) RM ports instead of ephemeral ones, and NodeManagers that talk to the RM over RPC (by
         * default they hold the first RM's objects) and retry it quickly.
         */
        public Builder restartableResourceManager() {
            set(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, "true");
            set(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, "true");
            set(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, "200");
            fixedPortRms = List.of("");
            return this;
        }

        /**
         * Two ResourceManagers with automatic failover through ZooKeeper at {@code zkConnect} (the embedded
         * elector, as {@code yarn.resourcemanager.ha.automatic-failover.enabled} does in production), each on
         * fixed ports so a restarted one comes back where clients look for it; NodeManagers and clients find
         * the active one through Hadoop's failover proxies and retry quickly.
         */
        public Builder highAvailability(String zkConnect) {
            resourceManagers = 2;
            set(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, "true");
            set(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, "true");
            set(YarnConfiguration.RM_HA_ENABLED, "true");
            set(YarnConfiguration.RM_HA_IDS, "rm0,rm1");
            set(YarnConfiguration.RM_CLUSTER_ID, name);
            set("hadoop.zk.address", zkConnect);
            // Hadoop 3.5's elector reads the older name of the same setting.
            set("yarn.resourcemanager.zk-address", zkConnect);
            set("hadoop.zk.timeout-ms", "5000");
            set(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, "200");
            set(YarnConfiguration.CLIENT_FAILOVER_SLEEPTIME_BASE_MS, "100");
            set(YarnConfiguration.CLIENT_FAILOVER_SLEEPTIME_MAX_MS, "500");
            fixedPortRms = List.of("rm0", "rm1");
            return this;
        }

        public Builder nodeManagerTimeout(Duration timeout) {
            this.nodeManagerTimeout = timeout;
            return this;
        }

        public MiniYarn start() {
            return LoopbackPorts.retryOnBindFailure(5, this::startOnce);
        }

        private MiniYarn startOnce() {
            QueueMetrics.clearQueueMetrics();
            YarnConfiguration conf = new YarnConfiguration();
            conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, nodeMemoryMb);
            conf.setInt(YarnConfiguration.NM_PMEM_MB, nodeMemoryMb);
            conf.setInt(YarnConfiguration.NM_VCORES, nodeVcores);
            conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
            conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
            conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
            // Fast stop: log deletion otherwise waits about half a minute.
            conf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 1);
            conf.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, 0);
            // The shaded minicluster ships no capacity-scheduler.xml.
            conf.set("yarn.scheduler.capacity.root.queues", "default");
            conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
            conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
            conf.set("yarn.scheduler.capacity.node-locality-delay", "-1");
            List<String> services = new ArrayList<>();
            if (mapReduce) {
                MapReduceClasspath.configureCluster(conf);
                services.add(MapReduceClasspath.SHUFFLE_SERVICE);
            }
            auxServices.forEach((serviceName, className) -> {
                services.add(serviceName);
                conf.set("yarn.nodemanager.aux-services." + serviceName + ".class", className);
            });
            if (!services.isEmpty()) {
                conf.set(YarnConfiguration.NM_AUX_SERVICES, String.join(",", services));
            }
            properties.forEach(conf::set);
            for (String rmId : fixedPortRms) {
                for (String key : RM_ADDRESS_KEYS) {
                    conf.set(rmId.isEmpty() ? key : key + "." + rmId, "localhost:" + LoopbackPorts.pick());
                }
            }

            MiniYARNCluster cluster = new MiniYARNCluster(name, resourceManagers, nodeManagers, 1, 1);
            List<Path> written = new ArrayList<>();
            Path dir = configDir != null ? configDir : ConfigFiles.firstClasspathDir();
            try {
                if (resourceManagers > 1) {
                    // An RM turning active re-reads its scheduler's configuration from yarn-site.xml and
                    // capacity-scheduler.xml on the classpath (refreshAll), as a real RM does from its conf
                    // directory; properties only set in memory (monitor policies, queues) would be lost.
                    written.add(ConfigFiles.writeCapacityScheduler(conf, dir));
                    written.add(ConfigFiles.writeYarnSite(conf, dir));
                }
                cluster.init(conf);
                cluster.start();
                if (!cluster.waitForNodeManagersToConnect(nodeManagerTimeout.toMillis())) {
                    throw new IllegalStateException(nodeManagers + " NodeManagers did not register within "
                            + nodeManagerTimeout.toSeconds() + " s");
                }
                Configuration running = new Configuration(cluster.getConfig());
                running.unset(YarnConfiguration.RM_HA_ID); // each RM of a pair has its own
                written.add(ConfigFiles.writeYarnSite(running, dir));
            } catch (Exception e) {
                cluster.stop();
                // Files left on the classpath would configure every later cluster of this JVM.
                ConfigFiles.deleteAll(written);
                QueueMetrics.clearQueueMetrics();
                if (e instanceof RuntimeException re) {
                    throw re;
                }
                throw new IllegalStateException("MiniYARNCluster " + name + " failed to start: " + e, e);
            }
            LOG.info("MiniYARNCluster {} up: {} NodeManagers of {} MB / {} vcores, {} ResourceManager(s), active at {}",
                    name, nodeManagers, nodeMemoryMb, nodeVcores, resourceManagers,
                    cluster.getConfig().get(YarnConfiguration.RM_ADDRESS));
            return new MiniYarn(cluster, nodeManagers, written);
        }
    }
}
