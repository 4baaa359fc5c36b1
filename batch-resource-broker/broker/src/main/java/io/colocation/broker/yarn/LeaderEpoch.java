package io.colocation.broker.yarn;

import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnContractCodec;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnGrantAck;
import io.colocation.helpers.concurrent.Daemons;
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
 *
 * <p>Succession: the newest replica is next in line ({@link Succession}). A standby that sees a replica started after
 * it queued behind it joins the election again, at its end; so a rolling update, which stops the old replicas, moves
 * the leadership once, to a new replica, instead of to an old one that is stopped next.
 */
public final class LeaderEpoch implements Leadership, Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderEpoch.class);
    private static final long REFRESH_MILLIS = 1000;

    /** The epoch this replica leads with, and the ZooKeeper version of the epoch node that proves it. */
    public record Fence(long epoch, int epochNodeVersion) {
    }

    /** Where this replica stands, as last observed (never a blocking call). */
    public enum Role { LATENT, STANDBY, LEADING, LEADING_WITHOUT_EPOCH, CLOSED }

    /**
     * @param leaderId   the leading replica as last seen, null when none (or not known)
     * @param problem    why this replica cannot lead or publish, null when it can
     * @param observedAt when {@code leaderId} was last read from ZooKeeper
     */
    public record Status(Role role, String leaderId, String problem, java.time.Instant observedAt) {
    }

    private final CuratorFramework client;
    private final String root;
    private final String epochPath;
    private final String replicaId;
    /** This replica's participant id: its replica id and when it started ({@link Succession}). */
    private final String participantId;
    /** Replaced when this replica joins the election again behind a newer one; only the worker thread replaces it. */
    private volatile LeaderLatch latch;
    private final java.util.concurrent.ScheduledExecutorService worker;
    private volatile Fence fence;
    private volatile boolean started;
    private volatile boolean closed;
    private volatile String leaderId;
    private volatile java.time.Instant observedAt;
    private volatile String problem;

    public LeaderEpoch(CuratorFramework client, String root, String replicaId) {
        this.client = client;
        this.root = root;
        this.epochPath = YarnContract.epochPath(root);
        this.replicaId = replicaId;
        this.participantId = Succession.participantId(replicaId, System.currentTimeMillis());
        this.worker = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(Daemons.named("leader-epoch"));
        this.latch = newLatch();
    }

    private LeaderLatch newLatch() {
        LeaderLatch joined = new LeaderLatch(client, root + "/leader", participantId);
        joined.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                worker.execute(LeaderEpoch.this::takeEpoch);
            }

            @Override
            public void notLeader() {
                Fence lost = fence;
                fence = null;
                LOG.warn("replica {} lost leadership{}", replicaId, lost == null ? "" : " (epoch " + lost.epoch() + ")");
            }
        });
        return joined;
    }

    public void start() throws IOException {
        try {
            latch.start();
        } catch (Exception e) {
            throw new IOException("cannot join the broker leader election at " + latch, e);
        }
        started = true;
        // Keeps the leader's id and retries a failed epoch in the background, so status() never blocks.
        worker.scheduleWithFixedDelay(this::refresh, 0, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** This replica's fence while it leads; empty when it does not (or no longer) lead. */
    @Override
    public Optional<Fence> fence() {
        return latch.hasLeadership() ? Optional.ofNullable(fence) : Optional.empty();
    }

    /** Where this replica stands, from kept state: answers at once even while ZooKeeper is unreachable. */
    public Status status() {
        Role role;
        if (closed) {
            role = Role.CLOSED;
        } else if (!started) {
            role = Role.LATENT;
        } else if (!latch.hasLeadership()) {
            role = Role.STANDBY;
        } else {
            role = fence == null ? Role.LEADING_WITHOUT_EPOCH : Role.LEADING;
        }
        return new Status(role, leaderId, role == Role.LEADING_WITHOUT_EPOCH ? orDefault(problem, "taking the epoch") : null,
                observedAt);
    }

    /** Waits until this replica leads with an epoch. */
    public boolean awaitLeadership(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (fence().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return fence().isPresent();
    }

    private void refresh() {
        try {
            if (latch.hasLeadership() && fence == null) {
                takeEpoch();
            }
            if (client.getZookeeperClient().isConnected()) {
                org.apache.curator.framework.recipes.leader.Participant leader = latch.getLeader();
                leaderId = leader.isLeader() ? Succession.replicaId(leader.getId()) : null;
                observedAt = java.time.Instant.now();
                if (!latch.hasLeadership() && !closed
                        && Succession.shouldRejoin(latch.getParticipants().stream().map(p -> p.getId()).toList(), participantId)) {
                    rejoin();
                }
            }
        } catch (Exception e) {
            LOG.debug("cannot read the broker leader: {}", e.getMessage());
        }
    }

    /** Joins the election again, at its end: behind the replicas started after this one. */
    private synchronized void rejoin() throws Exception {
        if (closed) {
            return;
        }
        LeaderLatch old = latch;
        LeaderLatch again = newLatch();
        again.start();
        if (old.hasLeadership()) {
            // the leader went meanwhile and this replica is next: keep the place
            again.close(LeaderLatch.CloseMode.SILENT);
            return;
        }
        latch = again;
        old.close(LeaderLatch.CloseMode.SILENT);
        LOG.info("replica {} joins the election again behind newer replicas (the newest is next in line)", replicaId);
    }

    /** Increments the epoch by compare-and-set, retrying if another writer got in between. */
    private synchronized void takeEpoch() {
        try {
            while (latch.hasLeadership() && fence == null) {
                Stat stat = new Stat();
                String text;
                try {
                    text = new String(client.getData().storingStatIn(stat).forPath(epochPath), StandardCharsets.UTF_8).trim();
                } catch (KeeperException.NoNodeException e) {
                    try {
                        client.create().creatingParentsIfNeeded().forPath(epochPath, "0".getBytes(StandardCharsets.UTF_8));
                    } catch (KeeperException.NodeExistsException raced) {
                        // someone created it meanwhile: read it again
                    }
                    continue;
                }
                long current = decimalEpoch(text);
                if (current < 0) {
                    current = repairedEpoch(text);
                }
                long next = current + 1;
                try {
                    Stat written = client.setData().withVersion(stat.getVersion())
                            .forPath(epochPath, Long.toString(next).getBytes(StandardCharsets.UTF_8));
                    fence = new Fence(next, written.getVersion());
                    problem = null;
                    LOG.info("replica {} leads with epoch {}", replicaId, next);
                    return;
                } catch (KeeperException.BadVersionException raced) {
                    LOG.info("epoch moved while taking leadership; reading it again");
                }
            }
        } catch (Exception e) {
            String why = "cannot take the broker epoch at " + epochPath + ": " + e.getMessage() + "; retrying";
            if (!why.equals(problem)) {
                LOG.warn("{}", why);
            }
            problem = why;
        }
    }

    private static long decimalEpoch(String text) {
        return text.matches("\\d{1,18}") ? Long.parseLong(text) : -1;
    }

    /**
     * The epoch node holds no decimal: start above every epoch any grant or acknowledgement carries, the
     * highest a YARN plugin can have seen, so fencing still holds after the repair.
     */
    private long repairedEpoch(String corrupt) throws Exception {
        long highest = 0;
        String yarn = root + "/yarn";
        if (client.checkExists().forPath(yarn) != null) {
            for (String cluster : client.getChildren().forPath(yarn)) {
                highest = Math.max(highest, highestEpoch(YarnContract.grantsPath(root, cluster), YarnGrant.class, YarnGrant::epoch));
                highest = Math.max(highest, highestEpoch(YarnContract.ackPath(root, cluster, "").replaceAll("/$", ""),
                        YarnGrantAck.class, YarnGrantAck::epoch));
            }
        }
        String message = epochPath + " held \"" + (corrupt.length() > 40 ? corrupt.substring(0, 40) + "..." : corrupt)
                + "\", not a decimal epoch; continuing above the highest epoch of any grant or acknowledgement (" + highest + ")";
        LOG.error("{}", message);
        problem = message;
        return highest;
    }

    private <T> long highestEpoch(String dir, Class<T> type, java.util.function.ToLongFunction<T> epoch) throws Exception {
        long highest = 0;
        if (client.checkExists().forPath(dir) == null) {
            return 0;
        }
        for (String node : client.getChildren().forPath(dir)) {
            try {
                highest = Math.max(highest, epoch.applyAsLong(YarnContractCodec.read(dir + "/" + node,
                        client.getData().forPath(dir + "/" + node), type)));
            } catch (IOException unreadable) {
                LOG.warn("epoch repair: skipping {}", unreadable.getMessage());
            }
        }
        return highest;
    }

    /** The id of the replica that currently leads as last observed, empty when none does (or it is not known yet). */
    public Optional<String> leaderId() {
        return Optional.ofNullable(leaderId);
    }

    String epochPath() {
        return epochPath;
    }

    private static String orDefault(String value, String fallback) {
        return value == null ? fallback : value;
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        fence = null;
        worker.shutdownNow();
        if (latch.getState() == LeaderLatch.State.STARTED) {
            latch.close();
        }
    }
}
