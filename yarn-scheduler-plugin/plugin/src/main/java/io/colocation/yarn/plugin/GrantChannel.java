package io.colocation.yarn.plugin;

import io.colocation.api.yarn.YarnApplications;
import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnContractCodec;
import io.colocation.api.yarn.YarnDemand;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnGrantAck;
import io.colocation.api.yarn.YarnNodeReport;
import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.api.yarn.YarnQueues;
import io.colocation.helpers.log.DistinctWarnings;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin's side of the ZooKeeper contract ({@link YarnContract}): watches the broker's grants and
 * leader epoch, and writes acknowledgements, node reports and demand. Writes are asynchronous so the
 * scheduling monitor never waits on ZooKeeper; a failed write is retried by the next report.
 */
final class GrantChannel implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(GrantChannel.class);

    /** What the channel reports to: called on Curator's event thread. */
    interface Listener {
        void grantChanged(YarnGrant grant);

        void grantRemoved(String nodeId);

        void epochChanged(long epoch);

        void queueLimitsChanged(YarnQueueLimits limits);

        void documentRejected(String path, String problem);
    }

    private final PluginSettings settings;
    private final CuratorFramework client;
    private final CuratorCache grants;
    private final CuratorCache epoch;
    private final CuratorCache queueLimits;
    private final String grantsPath;

    GrantChannel(PluginSettings settings, Listener listener) {
        this.settings = settings;
        this.client = CuratorFrameworkFactory.builder()
                .connectString(settings.zookeeperConnect())
                .sessionTimeoutMs(settings.sessionTimeoutMs())
                .connectionTimeoutMs(Math.min(15_000, settings.sessionTimeoutMs()))
                .retryPolicy(new ExponentialBackoffRetry(500, 10, 10_000))
                .build();
        this.grantsPath = YarnContract.grantsPath(settings.zookeeperRoot(), settings.clusterId());
        String epochPath = YarnContract.epochPath(settings.zookeeperRoot());
        this.grants = CuratorCache.build(client, grantsPath);
        this.epoch = CuratorCache.build(client, epochPath, CuratorCache.Options.SINGLE_NODE_CACHE);
        this.queueLimits = CuratorCache.build(client, YarnContract.queueLimitsPath(settings.zookeeperRoot(), settings.clusterId()),
                CuratorCache.Options.SINGLE_NODE_CACHE);
        queueLimits.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> queueLimitsData(after, listener))
                .forDeletes(old -> LOG.info("{} was deleted: the queues keep the limits YARN holds", old.getPath()))
                .build());
        grants.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> grantData(after, listener))
                .forDeletes(old -> {
                    String nodeId = nodeIdOf(old.getPath());
                    if (nodeId != null) {
                        listener.grantRemoved(nodeId);
                    }
                })
                .build());
        // Grants and limits are read only once the epoch is known, so stale ones are fenced from the first read.
        epoch.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> epochData(after, listener))
                .forInitialized(() -> {
                    grants.start();
                    queueLimits.start();
                })
                .build());
    }

    void start() {
        client.start();
        epoch.start();
        LOG.info("watching YARN grants at {}{} and the broker epoch at {}", settings.zookeeperConnect(), grantsPath,
                YarnContract.epochPath(settings.zookeeperRoot()));
    }

    private void grantData(ChildData data, Listener listener) {
        String nodeId = nodeIdOf(data.getPath());
        if (nodeId == null) {
            return;
        }
        try {
            YarnGrant grant = YarnContractCodec.read(data.getPath(), data.getData(), YarnGrant.class);
            if (!nodeId.equals(grant.nodeId())) {
                listener.documentRejected(data.getPath(), "the document is for node " + grant.nodeId()
                        + ", not " + nodeId);
                return;
            }
            listener.grantChanged(grant);
        } catch (IOException e) {
            listener.documentRejected(data.getPath(), e.getMessage());
        }
    }

    private void queueLimitsData(ChildData data, Listener listener) {
        try {
            listener.queueLimitsChanged(YarnContractCodec.read(data.getPath(), data.getData(), YarnQueueLimits.class));
        } catch (IOException e) {
            listener.documentRejected(data.getPath(), e.getMessage());
        }
    }

    private void epochData(ChildData data, Listener listener) {
        String text = data.getData() == null ? "" : new String(data.getData(), StandardCharsets.UTF_8).trim();
        try {
            listener.epochChanged(Long.parseLong(text));
        } catch (NumberFormatException e) {
            listener.documentRejected(data.getPath(), "the epoch must be a decimal number, found '" + text + "'");
        }
    }

    /** The node id of a grant's path, or null for the grants directory itself. */
    private String nodeIdOf(String path) {
        if (path.length() <= grantsPath.length() + 1 || !path.startsWith(grantsPath + "/")) {
            return null;
        }
        String rest = path.substring(grantsPath.length() + 1);
        return rest.contains("/") ? null : rest;
    }

    private static final String WRITES = "writes of reports and acknowledgements to ZooKeeper";
    private final DistinctWarnings writeFailures = new DistinctWarnings(LOG);

    void writeAck(YarnGrantAck ack, Runnable onFailure) {
        write(YarnContract.ackPath(settings.zookeeperRoot(), settings.clusterId(), ack.nodeId()), ack, onFailure);
    }

    void writeNodeReport(YarnNodeReport report, Runnable onFailure) {
        write(YarnContract.nodeReportPath(settings.zookeeperRoot(), settings.clusterId(), report.nodeId()), report,
                onFailure);
    }

    void writeDemand(YarnDemand demand, Runnable onFailure) {
        write(YarnContract.demandPath(settings.zookeeperRoot(), settings.clusterId()), demand, onFailure);
    }

    void writeQueues(YarnQueues queues, Runnable onFailure) {
        write(YarnContract.queuesPath(settings.zookeeperRoot(), settings.clusterId()), queues, onFailure);
    }

    void writeApplications(YarnApplications applications, Runnable onFailure) {
        write(YarnContract.applicationsPath(settings.zookeeperRoot(), settings.clusterId()), applications, onFailure);
    }

    /** Writes {@code document} at {@code path} in the background; {@code onFailure} runs if it did not land. */
    private void write(String path, Object document, Runnable onFailure) {
        BackgroundCallback callback = (c, event) -> {
            if (event.getResultCode() != KeeperException.Code.OK.intValue()) {
                writeFailed(String.valueOf(KeeperException.Code.get(event.getResultCode())));
                onFailure.run();
            } else {
                writeFailures.resolved(WRITES);
            }
        };
        try {
            client.create().orSetData().creatingParentsIfNeeded().inBackground(callback)
                    .forPath(path, YarnContractCodec.write(document));
        } catch (Exception e) {
            writeFailed(String.valueOf(e));
            onFailure.run();
        }
    }

    /** WARN once per cause (the broker then lacks this RM's reports and freezes its grants), then only count. */
    private void writeFailed(String cause) {
        writeFailures.warn(WRITES, cause + "; the broker freezes this cluster's grants until writes land");
    }

    @Override
    public void close() {
        grants.close();
        queueLimits.close();
        epoch.close();
        client.close();
    }
}
