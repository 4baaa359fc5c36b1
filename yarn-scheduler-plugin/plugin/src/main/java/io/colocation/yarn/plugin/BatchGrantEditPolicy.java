package io.colocation.yarn.plugin;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnGrantAck;
import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.helpers.time.ScaledClock;
import java.io.Closeable;
import java.time.Clock;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.monitor.SchedulingEditPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The colocation plugin inside the ResourceManager, installed as a scheduling monitor policy
 * ({@code yarn.resourcemanager.scheduler.monitor.policies}). The scheduler runs it only while this RM is
 * active, for the CapacityScheduler and the FairScheduler alike. Grants from the broker are applied as
 * soon as ZooKeeper delivers them; every {@code plugin.interval-ms} the policy confirms and acknowledges
 * applied grants, re-applies grants a node lost (NodeManager re-registration, RM restart or failover),
 * preempts gracefully where a grant fell below the allocation, makes a tree's queue limits the CapacityScheduler's
 * configuration and revokes a queue held above its maximum past the tree's delay, and reports allocation, demand and
 * queues.
 */
public class BatchGrantEditPolicy implements SchedulingEditPolicy, GrantChannel.Listener, Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(BatchGrantEditPolicy.class);
    static final String NAME = "ColocationBatchGrants";

    private final GrantBook book = new GrantBook();
    /** The wall clock, or a simulation's scaled clock ({@link ScaledClock}): report and acknowledgement times, waits. */
    private final Clock clock = ScaledClock.fromSystemProperties();
    private RMContext rmContext;
    private ResourceScheduler scheduler;
    private PluginSettings settings;
    private NodeCapacity capacity;
    private GrantChannel channel;
    private GracefulPreemption preemption;
    private AllocationReports reports;
    private QueueLimits queueLimits;
    private QueueRevocation queueRevocation;
    private PluginMetrics metrics;
    private boolean started;
    private volatile boolean closed;

    @Override
    public void init(Configuration config, RMContext context, ResourceScheduler scheduler) {
        if (!(scheduler instanceof AbstractYarnScheduler)) {
            throw new IllegalArgumentException(NAME + " needs a scheduler derived from AbstractYarnScheduler "
                    + "(CapacityScheduler, FairScheduler, FifoScheduler); found " + scheduler.getClass().getName());
        }
        AbstractYarnScheduler<?, ?> yarnScheduler = (AbstractYarnScheduler<?, ?>) scheduler;
        settings = PluginSettings.from(config);
        holdConfiguredMaximumAllocation(yarnScheduler);
        capacity = new NodeCapacity(context, scheduler);
        channel = new GrantChannel(settings, this);
        queueLimits = new QueueLimits(context, scheduler);
        reports = new AllocationReports(context, yarnScheduler, channel, queueLimits, settings.reportRefreshMs(),
                settings.reportMinIntervalMs());
        // The scheduler is stopped when this RM stops or turns standby; its successor gets a new policy.
        yarnScheduler.registerServiceListener(service -> {
            if (service.getServiceState() == Service.STATE.STOPPED) {
                close();
            }
        });
        if (!GracefulPreemption.schedulesVcores(scheduler)) {
            LOG.warn("{}: the scheduler counts memory only (CapacityScheduler with DefaultResourceCalculator), so the "
                    + "vcores of each grant are applied but not enforced; set yarn.scheduler.capacity.resource-calculator "
                    + "to org.apache.hadoop.yarn.util.resource.DominantResourceCalculator", NAME);
        }
        this.rmContext = context;
        this.scheduler = scheduler;
        LOG.info("{} configured: grants of YARN cluster '{}' from {}{}, every {} ms, preemption {}", NAME,
                settings.clusterId(), settings.zookeeperConnect(), settings.zookeeperRoot(), settings.intervalMs(),
                settings.preemptionEnabled() ? "on (wait " + settings.waitBeforeKillMs() + " ms, at most "
                        + settings.maxPreemptionsPerSecond() + "/s)" : "off");
    }

    /**
     * YARN caps every request at the largest node's total once the RM has run for
     * {@code yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms}, and rejects larger ones
     * (InvalidResourceRequestException). Grants set the node totals, so with every grant at 0 vcores every
     * request would be rejected instead of waiting for Batch to come back (a Spark ApplicationMaster exits
     * 10 on it). The maximum stays {@code yarn.scheduler.maximum-allocation-*}, as YARN itself keeps it
     * during that wait; requests up to it wait for a grant that holds them.
     */
    private static void holdConfiguredMaximumAllocation(AbstractYarnScheduler<?, ?> scheduler) {
        scheduler.getNodeTracker().setConfiguredMaxAllocationWaitTime(Long.MAX_VALUE);
        scheduler.getNodeTracker().setForceConfiguredMaxAllocation(true);
        LOG.info("{}: the maximum allocation stays the configured {} (yarn.scheduler.maximum-allocation-mb/-vcores) "
                + "whatever the grants: a request up to it waits for a grant that holds it", NAME,
                scheduler.getMaximumResourceCapability());
    }

    /** Connects on the first run: the scheduler runs monitors only on the active RM. */
    private synchronized boolean start() {
        if (closed) {
            return false;
        }
        if (!started) {
            metrics = PluginMetrics.register();
            preemption = new GracefulPreemption(rmContext, scheduler, settings, metrics);
            if (scheduler instanceof CapacityScheduler) {
                queueRevocation = new QueueRevocation((CapacityScheduler) scheduler, preemption);
            }
            channel.start();
            started = true;
        }
        return true;
    }

    @Override
    public void editSchedule() {
        if (!start()) {
            return;
        }
        long now = clock.millis();
        for (NodeCapacity.Applied applied : capacity.reconcile(now)) {
            YarnGrant g = applied.grant();
            LOG.info("grant epoch {} version {} enforced on {} ({} ms after it arrived)", g.epoch(), g.version(),
                    g.nodeId(), applied.latencyMillis());
            metrics.grantApplied(g, applied.latencyMillis());
            channel.writeAck(new YarnGrantAck(g.nodeId(), g.epoch(), g.version(), g.vcores(), g.memoryMB(), now),
                    () -> capacity.unacknowledge(g));
        }
        queueLimits.apply(book.fencingEpoch(), now);
        if (settings.preemptionEnabled()) {
            preemption.run(now, capacity.enforcedGrants());
            if (queueRevocation != null) {
                queueRevocation.run(now, queueLimits.inForce());
            }
        }
        metrics.allocations(reports.push(now));
    }

    @Override
    public long getMonitoringInterval() {
        return settings.intervalMs();
    }

    @Override
    public String getPolicyName() {
        return NAME;
    }

    @Override
    public void grantChanged(YarnGrant grant) {
        try {
            NodeId.fromString(grant.nodeId());
        } catch (IllegalArgumentException e) {
            documentRejected("grant " + grant.nodeId(), "the node id must be a NodeManager host:port");
            return;
        }
        switch (book.offer(grant)) {
            case ACCEPTED:
                capacity.apply(grant, clock.millis());
                break;
            case STALE_EPOCH:
                LOG.warn("ignoring grant for {} from broker epoch {} (version {}): the current epoch is {}, a deposed "
                        + "broker leader wrote it", grant.nodeId(), grant.epoch(), grant.version(), book.fencingEpoch());
                if (metrics != null) {
                    metrics.staleGrant();
                }
                break;
            default: // NOT_NEWER
                LOG.debug("grant for {} epoch {} version {} is not newer than the one applied",
                        grant.nodeId(), grant.epoch(), grant.version());
        }
    }

    @Override
    public void grantRemoved(String nodeId) {
        if (book.remove(nodeId) != null) {
            capacity.release(nodeId);
            if (metrics != null) {
                metrics.grantRemoved(nodeId);
            }
        }
    }

    @Override
    public void epochChanged(long epoch) {
        LOG.info("broker leader epoch is now {}: grants from older epochs are ignored", epoch);
        book.raiseEpoch(epoch);
    }

    @Override
    public void queueLimitsChanged(YarnQueueLimits limits) {
        queueLimits.offer(limits);
    }

    @Override
    public void documentRejected(String path, String problem) {
        LOG.error("ignoring {}: {}", path, problem);
        if (metrics != null) {
            metrics.documentRejected();
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (started) {
            channel.close();
            metrics.unregister();
            LOG.info("{} stopped", NAME);
        }
    }
}
