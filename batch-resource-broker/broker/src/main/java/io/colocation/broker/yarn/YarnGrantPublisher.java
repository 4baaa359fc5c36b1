package io.colocation.broker.yarn;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's side of the YARN contract for one YARN cluster ({@link YarnContract}): publishes per-node
 * grants stamped with the leader's epoch, each write fenced in ZooKeeper by a check of the epoch node's
 * version in the same transaction, and reads what the plugin writes back (acknowledgements, node
 * reports, demand) from a cache. Versions continue across epochs, so a new leader resumes from the
 * persisted grants ({@link #restampAll}).
 */
public final class YarnGrantPublisher implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(YarnGrantPublisher.class);

    private final CuratorFramework client;
    private final LeaderEpoch leadership;
    private final String root;
    private final String clusterId;
    private final CuratorCache cache;
    private final DistinctWarnings invalidDocuments = new DistinctWarnings(LOG);
    private final Map<String, Decoded> decoded = new java.util.concurrent.ConcurrentHashMap<>();
    /** Nodes whose report, acknowledgement or grant changed since {@link #takeChangedNodes()} last took them. */
    private volatile Set<String> changedNodes = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** A document at one ZooKeeper modification (mzxid): its value, or the last valid one when it is not valid. */
    private record Decoded(long version, Object value) {
    }

    public YarnGrantPublisher(CuratorFramework client, LeaderEpoch leadership, String root, String clusterId) {
        this.client = client;
        this.leadership = leadership;
        this.root = root;
        this.clusterId = clusterId;
        this.cache = CuratorCache.build(client, YarnContract.clusterPath(root, clusterId));
    }

    /** Runs {@code listener} when the plugin writes an acknowledgement (register before {@link #start}). */
    public void onAcknowledgement(Runnable listener) {
        String acks = YarnContract.ackPath(root, clusterId, "");
        cache.listenable().addListener((type, oldData, data) -> {
            if (data != null && data.getPath().startsWith(acks)) {
                listener.run();
            }
        });
    }

    public void start() throws IOException {
        String acks = YarnContract.ackPath(root, clusterId, "");
        String reports = YarnContract.nodeReportPath(root, clusterId, "");
        String grants = YarnContract.grantPath(root, clusterId, "");
        cache.listenable().addListener((type, oldData, data) -> {
            if (type == org.apache.curator.framework.recipes.cache.CuratorCacheListener.Type.NODE_DELETED && oldData != null) {
                decoded.remove(oldData.getPath());
            }
            String path = data != null ? data.getPath() : oldData != null ? oldData.getPath() : "";
            for (String prefix : new String[] {acks, reports, grants}) {
                if (path.length() > prefix.length() && path.startsWith(prefix)) {
                    changedNodes.add(path.substring(prefix.length()));
                }
            }
        });
        // The grants directory must exist for a new leader to list it (restampAll).
        String grantsDir = YarnContract.grantsPath(root, clusterId);
        try {
            if (client.checkExists().forPath(grantsDir) == null) {
                client.create().creatingParentsIfNeeded().forPath(grantsDir);
            }
        } catch (KeeperException.NodeExistsException raced) {
            // another replica created it
        } catch (Exception e) {
            throw new IOException("cannot prepare " + grantsDir + " in ZooKeeper", e);
        }
        cache.start();
    }

    /**
     * Publishes the node's next grant under this replica's epoch. Refused (and nothing written) when this
     * replica does not lead, or when another leader has moved the epoch on since.
     */
    public YarnGrant publish(String nodeId, int vcores, long memoryMB, int keepVcores, long keepMemoryMB)
            throws NotLeaderException, IOException {
        if (vcores < 0 || memoryMB < 0 || keepVcores < 0 || keepMemoryMB < 0) {
            throw new IllegalArgumentException("grant for " + nodeId + " must not be negative: " + vcores + " vcores, "
                    + memoryMB + " MiB");
        }
        LeaderEpoch.Fence fence = leadership.fence()
                .orElseThrow(() -> new NotLeaderException("not the broker leader: grant for " + nodeId + " not written"));
        return write(fence, nodeId, vcores, memoryMB, keepVcores, keepMemoryMB);
    }

    /** Publishes with an explicit fence (the leader's own, or a stale one a deposed leader still holds). */
    YarnGrant write(LeaderEpoch.Fence fence, String nodeId, int vcores, long memoryMB, int keepVcores, long keepMemoryMB)
            throws NotLeaderException, IOException {
        YarnGrant grant = fencedWrite(fence, YarnContract.grantPath(root, clusterId, nodeId), YarnGrant.class, "the grant for " + nodeId,
                previous -> new YarnGrant(nodeId, fence.epoch(), previous == null ? 1L : previous.version() + 1, vcores, memoryMB,
                        System.currentTimeMillis(), keepVcores, keepMemoryMB));
        LOG.debug("published {}", grant);
        return grant;
    }

    /**
     * Writes the document {@code next} makes of the persisted one (read from ZooKeeper itself, not the cache: versions must
     * grow even across leaders; null when absent or unreadable) in one transaction with a check of the epoch node, so a
     * leader whose epoch moved on writes nothing.
     */
    private <T> T fencedWrite(LeaderEpoch.Fence fence, String path, Class<T> type, String what, java.util.function.Function<T, T> next)
            throws NotLeaderException, IOException {
        T document;
        try {
            Stat stat = new Stat();
            T previous = null;
            try {
                previous = YarnContractCodec.read(path, client.getData().storingStatIn(stat).forPath(path), type);
            } catch (KeeperException.NoNodeException absent) {
                stat = null;
            } catch (IOException unreadable) {
                LOG.warn("replacing an unreadable document at {}: {}", path, unreadable.getMessage());
            }
            document = next.apply(previous);
            byte[] data = YarnContractCodec.write(document);
            CuratorOp check = client.transactionOp().check().withVersion(fence.epochNodeVersion())
                    .forPath(leadership.epochPath());
            CuratorOp put = stat == null
                    ? client.transactionOp().create().forPath(path, data)
                    : client.transactionOp().setData().withVersion(stat.getVersion()).forPath(path, data);
            client.transaction().forOperations(check, put);
        } catch (KeeperException.BadVersionException | KeeperException.NoNodeException
                | KeeperException.NodeExistsException e) {
            throw new NotLeaderException(what + " not written: epoch " + fence.epoch()
                    + " is no longer the broker's epoch, or another writer changed it meanwhile (" + e.code() + ")");
        } catch (Exception e) {
            throw new IOException("cannot write " + what + " at " + path + ": " + e.getMessage(), e);
        }
        return document;
    }

    /**
     * Publishes the CapacityScheduler limits of a tree's YARN queues under this replica's epoch (the whole set, the
     * next version). Refused (and nothing written) when this replica does not lead or the epoch moved on.
     */
    public YarnQueueLimits publishQueueLimits(Map<String, YarnQueueLimits.Limit> queues, long revokeAfterMillis)
            throws NotLeaderException, IOException {
        LeaderEpoch.Fence fence = leadership.fence()
                .orElseThrow(() -> new NotLeaderException("not the broker leader: queue limits not written"));
        return fencedWrite(fence, YarnContract.queueLimitsPath(root, clusterId), YarnQueueLimits.class, "the queue limits",
                previous -> new YarnQueueLimits(fence.epoch(), previous == null ? 1L : previous.version() + 1, queues,
                        revokeAfterMillis, System.currentTimeMillis()));
    }

    /**
     * After taking leadership: every persisted grant again (read from ZooKeeper itself, not the cache),
     * same figures, under this replica's epoch.
     */
    public List<YarnGrant> restampAll() throws NotLeaderException, IOException {
        String dir = YarnContract.grantsPath(root, clusterId);
        List<YarnGrant> restamped = new ArrayList<>();
        try {
            for (String nodeId : client.getChildren().forPath(dir)) {
                YarnGrant g;
                try {
                    g = YarnContractCodec.read(dir + "/" + nodeId, client.getData().forPath(dir + "/" + nodeId), YarnGrant.class);
                } catch (KeeperException.NoNodeException gone) {
                    continue;
                } catch (IOException unreadable) {
                    LOG.warn("cannot resume the unreadable grant {}/{}: {}", dir, nodeId, unreadable.getMessage());
                    continue;
                }
                restamped.add(publish(nodeId, g.vcores(), g.memoryMB(), g.keepVcores(), g.keepMemoryMB()));
            }
        } catch (NotLeaderException | IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot read the persisted grants under " + dir + ": " + e.getMessage(), e);
        }
        return restamped;
    }

    public Optional<YarnGrant> grant(String nodeId) {
        return read(YarnContract.grantPath(root, clusterId, nodeId), YarnGrant.class);
    }

    public Optional<YarnGrantAck> ack(String nodeId) {
        return read(YarnContract.ackPath(root, clusterId, nodeId), YarnGrantAck.class);
    }

    public Optional<YarnNodeReport> nodeReport(String nodeId) {
        return read(YarnContract.nodeReportPath(root, clusterId, nodeId), YarnNodeReport.class);
    }

    public Optional<YarnDemand> demand() {
        return read(YarnContract.demandPath(root, clusterId), YarnDemand.class);
    }

    public Optional<YarnApplications> applications() {
        return read(YarnContract.applicationsPath(root, clusterId), YarnApplications.class);
    }

    public Optional<YarnQueues> queues() {
        return read(YarnContract.queuesPath(root, clusterId), YarnQueues.class);
    }

    public Optional<YarnQueueLimits> queueLimits() {
        return read(YarnContract.queueLimitsPath(root, clusterId), YarnQueueLimits.class);
    }

    /** The node ids the plugin reports allocation for. */
    public List<String> reportedNodes() {
        String prefix = YarnContract.nodeReportPath(root, clusterId, "");
        return cache.stream().map(ChildData::getPath).filter(p -> p.startsWith(prefix) && p.length() > prefix.length())
                .map(p -> p.substring(prefix.length())).toList();
    }

    /**
     * The nodes whose report, acknowledgement or grant changed since the last call. A change the listener adds to the set
     * just taken is not lost: the cache holds the new document before the listener runs, so the caller reads it anyway.
     */
    public Set<String> takeChangedNodes() {
        Set<String> taken = changedNodes;
        changedNodes = java.util.concurrent.ConcurrentHashMap.newKeySet();
        return taken;
    }

    /** Whether the plugin applied {@code grant} (or a later one of the same epoch). */
    public boolean acknowledged(YarnGrant grant) {
        return ack(grant.nodeId()).filter(a -> a.epoch() == grant.epoch() && a.version() >= grant.version()).isPresent();
    }

    private <T> Optional<T> read(String path, Class<T> type) {
        return cache.get(path).flatMap(d -> decode(d, type));
    }

    private <T> Optional<T> decode(ChildData data, Class<T> type) {
        if (data.getData() == null || data.getData().length == 0) {
            return Optional.empty();
        }
        // Each document is read by several questions per node and pass: decode a version once, valid or not.
        long version = data.getStat() == null ? -1 : data.getStat().getMzxid();
        Decoded cached = decoded.get(data.getPath());
        if (cached != null && version >= 0 && cached.version() == version) {
            return as(type, cached.value());
        }
        try {
            T document = YarnContractCodec.read(data.getPath(), data.getData(), type);
            invalidDocuments.resolved(data.getPath());
            decoded.put(data.getPath(), new Decoded(version, document));
            return Optional.of(document);
        } catch (IOException e) {
            // The last valid one stands: a report then ages into "unreachable" and freezes the node's grant.
            invalidDocuments.warn(data.getPath(), "ignored, the last valid one stands: " + e.getMessage());
            Object lastValid = cached == null ? null : cached.value();
            decoded.put(data.getPath(), new Decoded(version, lastValid));
            return as(type, lastValid);
        }
    }

    private static <T> Optional<T> as(Class<T> type, Object value) {
        return type.isInstance(value) ? Optional.of(type.cast(value)) : Optional.empty();
    }

    /** Documents of the plugin refused as invalid now, by path, with why. */
    public Map<String, String> invalidDocuments() {
        return invalidDocuments.current();
    }

    @Override
    public void close() {
        cache.close();
    }
}
