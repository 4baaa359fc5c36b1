package io.colocation.broker.yarn;

import io.colocation.api.yarn.YarnContract;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leadership among broker replicas (Curator {@link LeaderLatch} at {@code {root}/leader}) with a fencing
 * epoch: on becoming leader a replica increments {@code {root}/epoch} by compare-and-set, and every grant
 * it writes afterwards is checked against that node's version in the same ZooKeeper transaction
 * ({@link Fence}). A replica that lost leadership but does not know it yet therefore cannot write: its
 * check fails once the next leader has moved the epoch on, and the YARN plugin ignores grants of older
 * epochs as well.
 */
public final class LeaderEpoch implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderEpoch.class);

    /** The epoch this replica leads with, and the ZooKeeper version of the epoch node that proves it. */
    public record Fence(long epoch, int epochNodeVersion) {
    }

    private final CuratorFramework client;
    private final String epochPath;
    private final LeaderLatch latch;
    private volatile Fence fence;

    public LeaderEpoch(CuratorFramework client, String root, String replicaId) {
        this.client = client;
        this.epochPath = YarnContract.epochPath(root);
        this.latch = new LeaderLatch(client, root + "/leader", replicaId);
        latch.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                takeEpoch();
            }

            @Override
            public void notLeader() {
                Fence lost = fence;
                fence = null;
                LOG.warn("replica {} lost leadership{}", replicaId, lost == null ? "" : " (epoch " + lost.epoch() + ")");
            }
        });
    }

    public void start() throws IOException {
        try {
            latch.start();
        } catch (Exception e) {
            throw new IOException("cannot join the broker leader election at " + latch, e);
        }
    }

    /** This replica's fence while it leads; empty when it does not (or no longer) lead. */
    public Optional<Fence> fence() {
        return latch.hasLeadership() ? Optional.ofNullable(fence) : Optional.empty();
    }

    /** Waits until this replica leads with an epoch. */
    public boolean awaitLeadership(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return false;
        }
        while (fence().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return fence().isPresent();
    }

    /** Increments the epoch by compare-and-set, retrying if another writer got in between. */
    private void takeEpoch() {
        try {
            while (latch.hasLeadership()) {
                Stat stat = new Stat();
                long current;
                try {
                    current = Long.parseLong(new String(client.getData().storingStatIn(stat).forPath(epochPath),
                            StandardCharsets.UTF_8).trim());
                } catch (KeeperException.NoNodeException e) {
                    try {
                        client.create().creatingParentsIfNeeded().forPath(epochPath, "0".getBytes(StandardCharsets.UTF_8));
                    } catch (KeeperException.NodeExistsException raced) {
                        // someone created it meanwhile: read it again
                    }
                    continue;
                }
                long next = current + 1;
                try {
                    Stat written = client.setData().withVersion(stat.getVersion())
                            .forPath(epochPath, Long.toString(next).getBytes(StandardCharsets.UTF_8));
                    fence = new Fence(next, written.getVersion());
                    LOG.info("replica {} leads with epoch {}", latch.getId(), next);
                    return;
                } catch (KeeperException.BadVersionException raced) {
                    LOG.info("epoch moved while taking leadership; reading it again");
                }
            }
        } catch (NumberFormatException e) {
            LOG.error("{} does not hold a decimal epoch; this replica cannot lead until it is fixed", epochPath);
        } catch (Exception e) {
            LOG.error("cannot take the broker epoch at {}; leadership is given up", epochPath, e);
            try {
                latch.close(LeaderLatch.CloseMode.NOTIFY_LEADER);
            } catch (IOException closeFailure) {
                LOG.warn("leaving the election failed", closeFailure);
            }
        }
    }

    /** The id of the replica that currently leads, empty when none does (or ZooKeeper cannot say). */
    public Optional<String> leaderId() {
        try {
            org.apache.curator.framework.recipes.leader.Participant leader = latch.getLeader();
            return leader.isLeader() ? Optional.of(leader.getId()) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    String epochPath() {
        return epochPath;
    }

    @Override
    public void close() throws IOException {
        fence = null;
        if (latch.getState() == LeaderLatch.State.STARTED) {
            latch.close();
        }
    }
}
