package io.colocation.broker.state;

import io.colocation.helpers.concurrent.Daemons;
import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link LastGoodConfig} in ZooKeeper at {@code {root}/config/colocation-config}, beside the epoch, where
 * every replica finds it. Saves run on their own thread (a ZooKeeper outage never stalls a pass); the
 * latest save wins.
 */
public final class ZooKeeperLastGoodConfig implements LastGoodConfig, Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperLastGoodConfig.class);

    private final CuratorFramework client;
    private final String path;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(Daemons.named("last-good-config"));
    private volatile String saved;

    public ZooKeeperLastGoodConfig(CuratorFramework client, String root) {
        this.client = client;
        this.path = root + "/config/colocation-config";
    }

    public static String path(String root) {
        return root + "/config/colocation-config";
    }

    @Override
    public Optional<String> load() {
        try {
            String json = new String(client.getData().forPath(path), StandardCharsets.UTF_8);
            saved = json;
            return Optional.of(json);
        } catch (KeeperException.NoNodeException none) {
            return Optional.empty();
        } catch (Exception e) {
            LOG.warn("cannot read the last good colocation-config at {}: {}", path, e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public void save(String json) {
        if (Objects.equals(json, saved)) {
            return;
        }
        saved = json;
        writer.execute(() -> {
            if (!Objects.equals(json, saved)) {
                return; // a newer one is queued
            }
            byte[] data = json.getBytes(StandardCharsets.UTF_8);
            try {
                try {
                    client.setData().forPath(path, data);
                } catch (KeeperException.NoNodeException absent) {
                    client.create().creatingParentsIfNeeded().forPath(path, data);
                }
                LOG.info("kept the accepted colocation-config at {}", path);
            } catch (Exception e) {
                saved = null; // try again with the next pass
                LOG.warn("cannot keep the accepted colocation-config at {}: {}", path, e.getMessage());
            }
        });
    }

    /** Lets a save already queued land (ZooKeeper is closed after this), for a few seconds at most. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(3, java.util.concurrent.TimeUnit.SECONDS)) {
                LOG.warn("the accepted colocation-config may not be kept at {}: ZooKeeper did not take it in time", path);
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            writer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
