package io.colocation.broker.yarn;

import io.colocation.api.yarn.YarnApplications;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.helpers.concurrent.Daemons;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueStatistics;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocol;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A YARN cluster whose ResourceManager has no colocation plugin: grants are applied with the RM admin
 * protocol's {@code updateNodeResource} (what {@code yarn rmadmin -updateNodeResource} does), and
 * allocation is read from the RM's node reports, polled every {@code pollInterval}. Hadoop's RM proxies
 * follow RM HA (they fail over to the active RM); a Kerberos login from keytab is used when configured.
 * Grants are first persisted in ZooKeeper under the leader's epoch ({@link YarnGrantPublisher}), and the
 * RM is called only if that fenced write succeeded, so a deposed leader cannot change YARN. A node whose
 * capacity is not the persisted grant (the RM restarted and took the NodeManager's own totals again) gets
 * its grant re-applied after the next poll. Memory is MiB both ways (Koordinator sends decimal MB).
 */
public final class RmAdminYarnSide implements YarnSide {
    private static final Logger LOG = LoggerFactory.getLogger(RmAdminYarnSide.class);
    /** No overcommit timeout: the RM keeps the new total until told otherwise. */
    private static final int NO_OVERCOMMIT_TIMEOUT = -1;

    private final String clusterId;
    private final Configuration conf;
    private final UserGroupInformation user;
    private final LeaderEpoch leadership;
    private final YarnGrantPublisher publisher;
    private final Duration pollInterval;
    private final Duration staleAfter;
    private final Clock clock;
    private final ScheduledExecutorService poller;
    private final UnconfirmedGrants unconfirmed = new UnconfirmedGrants();
    private YarnClient yarnClient;
    private ResourceManagerAdministrationProtocol admin;
    private volatile Map<String, NodeReport> reports = Map.of();
    private volatile Usage demand = Usage.NONE;
    private volatile long lastPollMillis = -1;
    private volatile String lastError = "not polled yet";
    private Runnable onApplied = () -> { };

    public RmAdminYarnSide(String clusterId, Configuration conf, UserGroupInformation user, CuratorFramework zk,
            LeaderEpoch leadership, String root, Duration pollInterval, Duration staleAfter, Clock clock) {
        this.clusterId = clusterId;
        this.conf = conf;
        this.user = user;
        this.leadership = leadership;
        this.publisher = new YarnGrantPublisher(zk, leadership, root, clusterId);
        this.pollInterval = pollInterval;
        this.staleAfter = staleAfter;
        this.clock = clock;
        this.poller = Executors.newSingleThreadScheduledExecutor(Daemons.named("rm-poll-" + clusterId));
    }

    @Override
    public String clusterId() {
        return clusterId;
    }

    @Override
    public void start(Runnable onApplied) throws IOException {
        this.onApplied = onApplied;
        publisher.start();
        try {
            as(() -> {
                yarnClient = YarnClient.createYarnClient();
                yarnClient.init(conf);
                yarnClient.start();
                admin = ClientRMProxy.createRMProxy(conf, ResourceManagerAdministrationProtocol.class);
                return null;
            });
        } catch (Exception e) {
            throw new IOException("YARN cluster " + clusterId + ": cannot create ResourceManager clients: " + e.getMessage(), e);
        }
        poller.scheduleWithFixedDelay(this::poll, 0, pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private <T> T as(PrivilegedExceptionAction<T> action) throws Exception {
        return user == null ? action.run() : user.doAs(action);
    }

    /** Reads node reports and demand; re-applies grants the RM lost. */
    void poll() {
        try {
            List<NodeReport> nodes = as(() -> yarnClient.getNodeReports(NodeState.RUNNING));
            Map<String, NodeReport> previous = reports;
            boolean capacityChanged = nodes.stream().anyMatch(n -> previous.get(n.getNodeId().toString()) == null
                    || !previous.get(n.getNodeId().toString()).getCapability().equals(n.getCapability()));
            if (capacityChanged) {
                onApplied.run();
            }
            reports = nodes.stream().collect(Collectors.toUnmodifiableMap(n -> n.getNodeId().toString(), n -> n, (a, b) -> a));
            demand = as(this::readDemand);
            lastPollMillis = clock.millis();
            lastError = null;
        } catch (Exception e) {
            if (lastError == null) {
                LOG.warn("YARN cluster {}: cannot read node reports from the ResourceManager ({}); its grants are frozen"
                        + " until it answers", clusterId, reason(e));
            }
            lastError = reason(e);
            return;
        }
        if (leadership.fence().isEmpty()) {
            return;
        }
        for (NodeReport report : reports.values()) {
            String nodeId = report.getNodeId().toString();
            Optional<YarnGrant> grant = publisher.grant(nodeId);
            if (grant.isPresent() && !matches(report.getCapability(), grant.get())) {
                LOG.info("YARN cluster {}: node {} has capacity {} but its grant is {} vcores / {} MiB (RM restarted or"
                        + " the NodeManager re-registered): re-applying", clusterId, nodeId, report.getCapability(),
                        grant.get().vcores(), grant.get().memoryMB());
                try {
                    apply(nodeId, grant.get().vcores(), grant.get().memoryMB());
                } catch (IOException e) {
                    LOG.warn("YARN cluster {}: re-applying the grant of {} failed: {}", clusterId, nodeId, e.getMessage());
                }
            }
        }
    }

    private Usage readDemand() throws Exception {
        QueueInfo root = yarnClient.getQueueInfo("root");
        QueueStatistics stats = root == null ? null : root.getQueueStatistics();
        return stats == null ? Usage.NONE : new Usage((int) Math.max(stats.getPendingVCores(), 0), Math.max(stats.getPendingMemoryMB(), 0));
    }

    private static boolean matches(Resource capability, YarnGrant grant) {
        return capability.getVirtualCores() == grant.vcores() && capability.getMemorySize() == grant.memoryMB();
    }

    private void apply(String nodeId, int vcores, long memoryMB) throws IOException {
        try {
            as(() -> admin.updateNodeResource(UpdateNodeResourceRequest.newInstance(Map.of(NodeId.fromString(nodeId),
                    ResourceOption.newInstance(Resource.newInstance(memoryMB, vcores), NO_OVERCOMMIT_TIMEOUT)))));
        } catch (Exception e) {
            throw new IOException("YARN cluster " + clusterId + ": updateNodeResource " + nodeId + " to " + vcores
                    + " vcores / " + memoryMB + " MiB failed: " + reason(e), e);
        }
    }

    /**
     * What the RM said: {@code doAs} wraps its checked exceptions (an ACL refusal is a YarnException) in an
     * exception without a message, so the first message down the cause chain is the one to show.
     */
    static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage().lines().findFirst().orElse(t.getMessage());
            }
        }
        return e.toString();
    }

    @Override
    public void resume() throws NotLeaderException, IOException {
        publisher.restampAll();
    }

    @Override
    public Collection<String> knownNodes() {
        return reports.keySet();
    }

    @Override
    public Optional<Usage> used(String nodeId) {
        NodeReport r = reports.get(nodeId);
        return r == null || r.getUsed() == null ? Optional.empty()
                : Optional.of(new Usage(r.getUsed().getVirtualCores(), r.getUsed().getMemorySize()));
    }

    @Override
    public Optional<YarnApplications> applications() {
        return Optional.empty(); // the admin route reads node reports and demand only: no per-application view
    }

    @Override
    public Usage demand() {
        return demand;
    }

    private boolean fresh() {
        return lastPollMillis >= 0 && clock.millis() - lastPollMillis <= staleAfter.toMillis();
    }

    @Override
    public boolean reachable(String nodeId) {
        return fresh() && reports.containsKey(nodeId);
    }

    @Override
    public Health health() {
        if (!fresh()) {
            return new Health(false, "YARN cluster " + clusterId + " (RM admin): no node report for "
                    + (lastPollMillis < 0 ? "ever" : (clock.millis() - lastPollMillis) / 1000 + " s") + ": " + lastError);
        }
        return new Health(true, "YARN cluster " + clusterId + " (RM admin): " + reports.size() + " running nodes");
    }

    @Override
    public Optional<YarnGrant> grant(String nodeId) {
        return publisher.grant(nodeId);
    }

    @Override
    public Optional<Usage> applied(String nodeId) {
        NodeReport r = reports.get(nodeId);
        return r == null ? Optional.empty()
                : Optional.of(new Usage(r.getCapability().getVirtualCores(), r.getCapability().getMemorySize()));
    }

    @Override
    public Optional<Usage> unconfirmed(String nodeId) {
        return unconfirmed.peak(nodeId, confirmation(nodeId));
    }

    /** What the ResourceManager last reported of the node: its capacity, which settles the newest grant with those figures. */
    private UnconfirmedGrants.Confirmation confirmation(String nodeId) {
        NodeReport r = reports.get(nodeId);
        return r == null ? UnconfirmedGrants.Confirmation.NONE
                : UnconfirmedGrants.Confirmation.capacity(r.getCapability().getVirtualCores(), r.getCapability().getMemorySize());
    }

    @Override
    public YarnGrant publish(String nodeId, int vcores, long memoryMB, Usage keep) throws NotLeaderException, IOException {
        // No plugin preempts in this mode: the keep is recorded with the grant only.
        YarnGrant grant = publisher.publish(nodeId, vcores, memoryMB, keep.vcores(), keep.memoryMB());
        unconfirmed.published(grant, confirmation(nodeId));
        apply(nodeId, vcores, memoryMB);
        return grant;
    }

    @Override
    public void close() {
        poller.shutdownNow();
        if (yarnClient != null) {
            yarnClient.stop();
        }
        if (admin != null) {
            org.apache.hadoop.ipc.RPC.stopProxy(admin);
        }
        publisher.close();
    }
}
