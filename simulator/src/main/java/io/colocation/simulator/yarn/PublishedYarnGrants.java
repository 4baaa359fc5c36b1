package io.colocation.simulator.yarn;

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
    private final Map<String, YarnGrant> byNodeId = new ConcurrentHashMap<>();

    PublishedYarnGrants(String zkConnect, String root, String clusterId) {
        client = CuratorFrameworkFactory.newClient(zkConnect, new ExponentialBackoffRetry(200, 5));
        String folder = YarnContract.grantsPath(root, clusterId);
        cache = CuratorCache.build(client, folder);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> read(folder, after))
                .forDeletes(old -> byNodeId.remove(old.getPath().substring(old.getPath().lastIndexOf('/') + 1)))
                .build());
    }

    void start() {
        client.start();
        cache.start();
    }

    private void read(String folder, ChildData data) {
        if (!data.getPath().startsWith(folder + "/") || data.getData() == null || data.getData().length == 0) {
            return;
        }
        try {
            YarnGrant grant = YarnContractCodec.read(data.getPath(), data.getData(), YarnGrant.class);
            byNodeId.put(grant.nodeId(), grant);
        } catch (IOException e) {
            byNodeId.remove(data.getPath().substring(folder.length() + 1)); // the plugin refuses it too
        }
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
