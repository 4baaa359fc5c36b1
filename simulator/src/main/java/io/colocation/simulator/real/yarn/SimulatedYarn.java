package io.colocation.simulator.real.yarn;

import io.colocation.api.yarn.YarnContract;
import io.colocation.helpers.concurrent.Daemons;
import io.colocation.koordlet.yarn.YarnContainers;
import io.colocation.simulator.measure.YarnCounters;
import io.colocation.simulator.measure.YarnNodeFigures;
import io.colocation.simulator.model.host.BatchTask;
import io.colocation.simulator.model.host.SimulatedHost;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.amlauncher.AMLauncherEvent;
import org.apache.hadoop.yarn.server.resourcemanager.amlauncher.ApplicationMasterLauncher;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptImpl;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * YARN for the simulated cluster: a real ResourceManager (its real scheduler, the CapacityScheduler as configured, and
 * the colocation scheduler plugin as a monitor policy) driven the way Hadoop's Scheduler Load Simulator drives one:
 * simulated NodeManagers heartbeat through the ResourceTrackerService, simulated ApplicationMasters allocate through
 * the ApplicationMasterService, and a launcher of the RM's own kind registers each application's master instead of
 * starting a process. Only the work inside containers is simulated (on the hosts).
 */
public final class SimulatedYarn implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SimulatedYarn.class);
    public static final int NODE_MANAGER_PORT = 8041;

    private final ResourceManager rm;
    private final Clock clock;
    private final Map<String, NodeManagerSimulator> nodeManagers = new LinkedHashMap<>();
    private final Map<ApplicationId, ApplicationSimulator> applications = new ConcurrentHashMap<>();
    private final List<ApplicationSimulator> active = new CopyOnWriteArrayList<>();
    private final YarnCounters counters = new YarnCounters();
    private final AtomicLong heartbeatFailures = new AtomicLong();
    private final ScheduledExecutorService nodeLoop = Executors.newSingleThreadScheduledExecutor(Daemons.named("yarn-nm-heartbeats"));
    private final ScheduledExecutorService amLoop = Executors.newSingleThreadScheduledExecutor(Daemons.named("yarn-am-heartbeats"));
    private final Resource amResource;
    private final PublishedYarnGrants published;

    private SimulatedYarn(ResourceManager rm, Clock clock, Resource amResource, PublishedYarnGrants published) {
        this.rm = rm;
        this.clock = clock;
        this.amResource = amResource;
        this.published = published;
    }

    /**
     * Starts the ResourceManager with {@code conf}, registers a NodeManager of {@code nodeResource} for every host (its
     * node id {@code <host>:8041}, so the broker matches it to the Kubernetes node by host name) and starts the
     * heartbeats.
     */
    public static SimulatedYarn start(Configuration conf, Collection<SimulatedHost> hosts, Resource nodeResource, Resource amResource,
            Clock clock, Duration nodeHeartbeat, Duration amHeartbeat) throws Exception {
        QueueMetrics.clearQueueMetrics();
        // Simulated hosts have names, no addresses: container tokens name their NodeManager by host name, and each name
        // resolves to loopback in Hadoop's own resolution (otherwise every container token asks DNS for a name it lacks).
        conf.setBoolean("hadoop.security.token.service.use_ip", false);
        SecurityUtil.setTokenServiceUseIp(false);
        for (SimulatedHost h : hosts) {
            NetUtils.addStaticResolution(h.name(), "127.0.0.1");
        }
        SimulatedYarn[] self = new SimulatedYarn[1];
        ResourceManager rm = new ResourceManager() {
            @Override
            protected ApplicationMasterLauncher createAMLauncher() {
                return new Launcher(this.rmContext, self);
            }
        };
        SimulatedYarn yarn = new SimulatedYarn(rm, clock, amResource, new PublishedYarnGrants(
                conf.get("colocation.yarn.zookeeper.connect"), conf.get("colocation.yarn.zookeeper.root", YarnContract.DEFAULT_ROOT),
                conf.get("colocation.yarn.cluster-id", YarnContract.DEFAULT_CLUSTER_ID)));
        self[0] = yarn;
        yarn.published.start();
        rm.init(conf);
        rm.start();
        for (SimulatedHost h : hosts) {
            NodeManagerSimulator nm = new NodeManagerSimulator(NodeId.newInstance(h.name(), NODE_MANAGER_PORT), h,
                    rm.getResourceTrackerService(), nodeResource, yarn.counters);
            nm.register();
            yarn.nodeManagers.put(h.name(), nm);
        }
        yarn.nodeLoop.scheduleWithFixedDelay(yarn::heartbeatNodes, 0, nodeHeartbeat.toMillis(), TimeUnit.MILLISECONDS);
        yarn.amLoop.scheduleWithFixedDelay(yarn::heartbeatApplications, 0, amHeartbeat.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info("YARN: a ResourceManager ({}) and {} simulated NodeManagers of {}", rm.getResourceScheduler().getClass().getSimpleName(),
                hosts.size(), nodeResource);
        return yarn;
    }

    /** The RM's launcher, replaced: the master "starts" on its node's simulated host and registers on its next heartbeat. */
    private static final class Launcher extends ApplicationMasterLauncher {
        private final SimulatedYarn[] yarn;

        Launcher(RMContext context, SimulatedYarn[] yarn) {
            super(context);
            this.yarn = yarn;
        }

        @Override
        protected void serviceInit(Configuration conf) {
            // no launcher threads: nothing is started as a process
        }

        @Override
        protected void serviceStart() {
            // no launcher threads
        }

        @Override
        protected void serviceStop() {
            // no launcher threads
        }

        @Override
        public void handle(AMLauncherEvent event) {
            RMAppAttempt attempt = event.getAppAttempt();
            Container master = attempt.getMasterContainer();
            switch (event.getType()) {
                case LAUNCH -> {
                    Token<AMRMTokenIdentifier> token = context.getAMRMTokenSecretManager().createAndGetAMRMToken(attempt.getAppAttemptId());
                    ((RMAppAttemptImpl) attempt).setAMRMToken(token);
                    context.getDispatcher().getEventHandler().handle(new RMAppAttemptEvent(attempt.getAppAttemptId(),
                            RMAppAttemptEventType.LAUNCHED));
                    yarn[0].masterLaunched(attempt.getAppAttemptId().getApplicationId(), master, token);
                }
                case CLEANUP -> yarn[0].masterExited(master);
                default -> {
                }
            }
        }
    }

    private void masterLaunched(ApplicationId id, Container master, Token<AMRMTokenIdentifier> token) {
        ApplicationSimulator app = applications.get(id);
        NodeManagerSimulator nm = nodeManagers.get(master.getNodeId().getHost());
        if (app == null || nm == null) {
            LOG.warn("YARN: application {} launched on {}, which the simulation does not know", id, master.getNodeId());
            return;
        }
        try {
            app.launched(master, token, clock.millis());
        } catch (Exception e) {
            LOG.warn("YARN: application {} cannot use its master's token: {}", id, e.toString());
            return;
        }
        Resource r = master.getResource();
        nm.launch(master, new BatchTask(master.getId().toString(), BatchTask.Side.YARN, master.getId().toString(), r.getVirtualCores() * 1000L,
                r.getMemorySize() << 20, 0.3, (r.getMemorySize() << 20) / 2, 0, true, 0, clock.millis()));
    }

    void masterExited(Container master) {
        if (master == null) {
            return;
        }
        NodeManagerSimulator nm = nodeManagers.get(master.getNodeId().getHost());
        if (nm != null) {
            nm.finishApplicationMaster(master.getId());
        }
    }

    void launch(Container c, BatchTask task) {
        NodeManagerSimulator nm = nodeManagers.get(c.getNodeId().getHost());
        if (nm == null) {
            LOG.warn("YARN: container {} allocated on {}, which the simulation does not know", c.getId(), c.getNodeId());
            return;
        }
        nm.launch(c, task);
    }

    /** Submits an application of these tasks (all of one size). */
    public void submit(List<YarnTask> tasks) throws Exception {
        ApplicationSimulator app = new ApplicationSimulator(this, rm, "default", amResource, tasks, counters, clock.millis());
        synchronized (this) {
            ApplicationId id = app.submit();
            applications.put(id, app);
        }
        active.add(app);
    }

    /** Tasks waiting for a container, in running applications, plus the tasks of applications not launched yet. */
    public int pendingTasks() {
        int n = 0;
        for (ApplicationSimulator a : active) {
            n += a.pendingTasks();
        }
        return n;
    }

    /** The vcores of the tasks waiting for a container. */
    public double pendingVcores() {
        double n = 0;
        for (ApplicationSimulator a : active) {
            n += a.pendingVcores();
        }
        return n;
    }

    /** The host ended one of its YARN tasks. */
    public void ended(SimulatedHost host, BatchTask task, SimulatedHost.Ending how) {
        NodeManagerSimulator nm = nodeManagers.get(host.name());
        if (nm != null) {
            nm.ended(task, how);
        }
    }

    /** The koordlet's view of the host's NodeManager (its copilot). */
    public YarnContainers containers(String host) {
        return nodeManagers.get(host).containers();
    }

    public YarnNodeFigures figures(String host) {
        NodeManagerSimulator nm = nodeManagers.get(host);
        SchedulerNode node = nm == null ? null : ((AbstractYarnScheduler<?, ?>) rm.getResourceScheduler()).getSchedulerNode(nm.nodeId());
        if (node == null) {
            return YarnNodeFigures.NONE;
        }
        Resource total = node.getTotalResource();
        Resource used = node.getAllocatedResource();
        return new YarnNodeFigures(total.getVirtualCores() * 1000L, total.getMemorySize() << 20, used.getVirtualCores() * 1000L,
                used.getMemorySize() << 20, published.vcoresMilli(nm.nodeId().toString()));
    }

    private void heartbeatNodes() {
        for (NodeManagerSimulator nm : nodeManagers.values()) {
            try {
                nm.heartbeat();
            } catch (Exception | Error e) {
                if (heartbeatFailures.incrementAndGet() % 1000 == 1) {
                    LOG.warn("YARN: NodeManager {} heartbeat failed: {}", nm.nodeId(), rootCause(e));
                }
            }
        }
    }

    private void heartbeatApplications() {
        long now = clock.millis();
        List<ApplicationSimulator> finished = new ArrayList<>();
        for (ApplicationSimulator app : active) {
            try {
                app.heartbeat(now);
                if (app.finished()) {
                    finished.add(app);
                }
            } catch (Exception | Error e) {
                if (heartbeatFailures.incrementAndGet() % 1000 == 1) {
                    LOG.warn("YARN: application {} heartbeat failed: {}", app.id(), rootCause(e));
                }
            }
        }
        active.removeAll(finished);
        finished.forEach(a -> applications.remove(a.id()));
    }

    /** What the RM said: doAs wraps its checked exceptions in an UndeclaredThrowableException without a message. */
    private static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? e.toString() : e.getClass().getSimpleName() + " caused by " + t;
    }

    public YarnCounters counters() {
        return counters;
    }

    public long heartbeatFailures() {
        return heartbeatFailures.get();
    }

    public int runningApplications() {
        return active.size();
    }

    public ResourceManager resourceManager() {
        return rm;
    }

    @Override
    public void close() {
        Daemons.stop(5, nodeLoop, amLoop);
        published.close();
        rm.stop();
        QueueMetrics.clearQueueMetrics();
    }
}
