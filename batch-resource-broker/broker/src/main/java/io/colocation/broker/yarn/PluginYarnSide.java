package io.colocation.broker.yarn;

import io.colocation.api.yarn.YarnApplications;
import io.colocation.api.yarn.YarnDemand;
import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.api.yarn.YarnQueues;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnNodeReport;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;

/**
 * A YARN cluster whose ResourceManager runs the colocation scheduler plugin: grants, acknowledgements,
 * node reports and demand all travel through ZooKeeper ({@link YarnGrantPublisher}). A node whose
 * report is older than {@code staleAfter} (the plugin refreshes reports every few seconds even when
 * nothing changes) counts as unreachable: the RM or the plugin is down, so its grant is frozen.
 */
public final class PluginYarnSide implements YarnSide {
    private final String clusterId;
    private final CuratorFramework client;
    private final YarnGrantPublisher publisher;
    private final Duration staleAfter;
    private final Clock clock;
    private final UnconfirmedGrants unconfirmed = new UnconfirmedGrants();

    public PluginYarnSide(CuratorFramework client, LeaderEpoch leadership, String root, String clusterId,
            Duration staleAfter, Clock clock) {
        this.clusterId = clusterId;
        this.client = client;
        this.publisher = new YarnGrantPublisher(client, leadership, root, clusterId);
        this.staleAfter = staleAfter;
        this.clock = clock;
    }

    @Override
    public String clusterId() {
        return clusterId;
    }

    @Override
    public void start(Runnable onApplied) throws IOException {
        publisher.onAcknowledgement(onApplied);
        publisher.start();
    }

    @Override
    public void resume() throws NotLeaderException, IOException {
        publisher.restampAll();
    }

    @Override
    public Collection<String> knownNodes() {
        return publisher.reportedNodes();
    }

    @Override
    public Optional<Usage> used(String nodeId) {
        return publisher.nodeReport(nodeId).map(r -> new Usage(r.allocatedVcores(), r.allocatedMemoryMB()));
    }

    @Override
    public Optional<YarnApplications> applications() {
        return publisher.applications();
    }

    @Override
    public Optional<YarnQueues> queues() {
        return publisher.queues();
    }

    @Override
    public Optional<YarnQueueLimits> queueLimits() {
        return publisher.queueLimits();
    }

    @Override
    public YarnQueueLimits publishQueueLimits(Map<String, YarnQueueLimits.Limit> queues, long revokeAfterMillis) throws NotLeaderException, IOException {
        return publisher.publishQueueLimits(queues, revokeAfterMillis);
    }

    @Override
    public Usage demand() {
        return publisher.demand().map((YarnDemand d) -> new Usage(d.pendingVcores(), d.pendingMemoryMB())).orElse(Usage.NONE);
    }

    @Override
    public Set<String> takeChangedNodes() {
        return publisher.takeChangedNodes();
    }

    @Override
    public boolean reachable(String nodeId) {
        if (!client.getZookeeperClient().isConnected()) {
            return false;
        }
        Optional<YarnNodeReport> report = publisher.nodeReport(nodeId);
        return report.isPresent() && clock.millis() - report.get().reportedAtMillis() <= staleAfter.toMillis();
    }

    @Override
    public Health health() {
        Collection<String> nodes = knownNodes();
        long fresh = nodes.stream().filter(this::reachable).count();
        long now = clock.millis();
        Long pluginAge = publisher.demand().map(d -> now - d.reportedAtMillis()).orElse(null);
        return health(clusterId, client.getZookeeperClient().isConnected(), nodes.size(), fresh, pluginAge, staleAfter, now);
    }

    /**
     * The cluster's health from what its plugin wrote: a fresh node report, or a fresh demand report (the plugin
     * refreshes it every few seconds whatever the nodes do), says the ResourceManager and its plugin are up; a cluster
     * whose NodeManagers are all gone is healthy, its nodes unreachable one by one.
     *
     * @param pluginReportAgeMillis the age of the plugin's demand report; null when it has written none
     */
    static Health health(String clusterId, boolean connected, int known, long fresh, Long pluginReportAgeMillis,
            Duration staleAfter, long now) {
        if (!connected) {
            return new Health(false, "ZooKeeper is not connected: no word from the plugin of YARN cluster " + clusterId);
        }
        boolean pluginFresh = pluginReportAgeMillis != null && pluginReportAgeMillis <= staleAfter.toMillis();
        if (known > 0 && fresh == 0 && !pluginFresh) {
            return new Health(false, "YARN cluster " + clusterId + ": no node report newer than " + staleAfter.toSeconds()
                    + " s from the scheduler plugin (is the ResourceManager up?)");
        }
        return new Health(true, "YARN cluster " + clusterId + " (scheduler plugin): " + fresh + " of " + known
                + " nodes reported within " + staleAfter.toSeconds() + " s at " + now
                + (pluginFresh && fresh == 0 && known > 0 ? "; the plugin reports, no NodeManager does" : ""));
    }

    @Override
    public Optional<YarnGrant> grant(String nodeId) {
        return publisher.grant(nodeId);
    }

    @Override
    public Optional<Usage> applied(String nodeId) {
        return publisher.ack(nodeId).map(a -> new Usage(a.vcores(), a.memoryMB()));
    }

    @Override
    public Optional<Usage> unconfirmed(String nodeId) {
        return unconfirmed.peak(nodeId, confirmation(nodeId));
    }

    /** What the plugin last acknowledged for the node: the version it applied. */
    private UnconfirmedGrants.Confirmation confirmation(String nodeId) {
        return publisher.ack(nodeId).map(a -> UnconfirmedGrants.Confirmation.version(a.version())).orElse(UnconfirmedGrants.Confirmation.NONE);
    }

    @Override
    public YarnGrant publish(String nodeId, int vcores, long memoryMB, Usage keep) throws NotLeaderException, IOException {
        YarnGrant grant = publisher.publish(nodeId, vcores, memoryMB, keep.vcores(), keep.memoryMB());
        unconfirmed.published(grant, confirmation(nodeId));
        return grant;
    }

    @Override
    public void close() {
        publisher.close();
    }
}
