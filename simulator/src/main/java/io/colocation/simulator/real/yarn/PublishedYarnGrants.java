package io.colocation.simulator.real.yarn;

import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnContractCodec;
import io.colocation.api.yarn.YarnGrant;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * The YARN grants the broker published, as the plugin reads them (the contract's grants folder in ZooKeeper): what the
 * arbitration decided for each NodeManager, apart from what the ResourceManager's scheduler has applied so far. The
 * sampler judges the broker's decisions by these and the scheduler's way to them separately.
 */
final class PublishedYarnGrants implements AutoCloseable {
    private final CuratorFramework client;
    private final CuratorCache cache;
    private final String folder;
    private final Map<String, YarnGrant> byNodeId = new ConcurrentHashMap<>();

    PublishedYarnGrants(String zkConnect, String root, String clusterId) {
        client = CuratorFrameworkFactory.newClient(zkConnect, new ExponentialBackoffRetry(200, 5));
        folder = YarnContract.grantsPath(root, clusterId);
        cache = CuratorCache.build(client, folder);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> read(after))
                .forDeletes(old -> byNodeId.remove(nodeIdOf(old.getPath())))
                .build());
    }

    void start() {
        client.start();
        cache.start();
    }

    /** A grant document's node id, its name in the folder ("" for the folder itself). */
    private String nodeIdOf(String path) {
        return path.startsWith(folder + "/") ? path.substring(folder.length() + 1) : "";
    }

    /** Keeps what the plugin would apply: a valid grant for the node it is named after; anything else counts as none. */
    private void read(ChildData data) {
        String nodeId = nodeIdOf(data.getPath());
        if (nodeId.isEmpty()) {
            return;
        }
        try {
            YarnGrant grant = YarnContractCodec.read(data.getPath(), data.getData(), YarnGrant.class);
            if (grant.nodeId().equals(nodeId)) {
                byNodeId.put(nodeId, grant);
                return;
            }
        } catch (IOException e) {
            // the plugin refuses it too
        }
        byNodeId.remove(nodeId);
    }

    /** The published grant's vcores in milli-cores, or -1 when none is published for the NodeManager. */
    long vcoresMilli(String nodeId) {
        YarnGrant g = byNodeId.get(nodeId);
        return g == null ? -1 : g.vcores() * 1000L;
    }

    @Override
    public void close() {
        cache.close();
        client.close();
    }
}
