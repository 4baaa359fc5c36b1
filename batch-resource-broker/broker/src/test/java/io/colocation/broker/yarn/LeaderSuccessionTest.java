package io.colocation.broker.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A rolling update as a Deployment does it (maxSurge 1, maxUnavailable 0) on a real ZooKeeper: two old replicas, a new
 * one starts, an old one stops, the second new one starts, the other old one stops. Whichever old replica leads and
 * whichever stops first, the leadership moves once, to a new replica.
 */
@ExtendWith(ZooKeeperExtension.class)
class LeaderSuccessionTest {

    @Test
    void aRollingUpdateMovesTheLeadershipOnceWhenTheLeaderStopsFirst(LocalZooKeeper zk) throws Exception {
        roll(zk, "/succession-leader-first", true);
    }

    @Test
    void aRollingUpdateMovesTheLeadershipOnceWhenTheStandbyStopsFirst(LocalZooKeeper zk) throws Exception {
        roll(zk, "/succession-standby-first", false);
    }

    private static void roll(LocalZooKeeper zk, String root, boolean leaderStopsFirst) throws Exception {
        List<String> epochs = new java.util.concurrent.CopyOnWriteArrayList<>();
        CuratorFramework watcher = zk.newClient();
        try (CuratorCache epoch = CuratorCache.build(watcher, io.colocation.api.yarn.YarnContract.epochPath(root))) {
            epoch.listenable().addListener(CuratorCacheListener.builder().forCreatesAndChanges((before, after) ->
                    epochs.add(new String(after.getData(), java.nio.charset.StandardCharsets.UTF_8))).build());
            epoch.start();
            LeaderEpoch old1 = started(zk, root, "old-1");
            assertTrue(old1.awaitLeadership(Duration.ofSeconds(10)));
            LeaderEpoch old2 = started(zk, root, "old-2");
            Thread.sleep(5); // the start times tell the replicas apart
            LeaderEpoch new1 = started(zk, root, "new-1");
            Thread.sleep(3_000); // a few refresh rounds: the old standby rejoins behind the new replica
            (leaderStopsFirst ? old1 : old2).close();
            Thread.sleep(5);
            LeaderEpoch new2 = started(zk, root, "new-2");
            Thread.sleep(3_000); // a few refresh rounds: the old standby, if any, rejoins behind the new ones
            (leaderStopsFirst ? old2 : old1).close();
            Await.until(Duration.ofSeconds(10), () -> new1.fence().isPresent() || new2.fence().isPresent());
            Thread.sleep(1_000);
            // ("0" is the epoch node's creation, which the cache may or may not see before the first leader's "1")
            assertEquals(List.of("1", "2"), epochs.stream().filter(e -> !e.equals("0")).toList(), "the epoch moved once after the first leader's");
            assertTrue(new1.fence().isPresent() != new2.fence().isPresent(), "a new replica leads");
            new1.close();
            new2.close();
        }
    }

    private static LeaderEpoch started(LocalZooKeeper zk, String root, String id) throws Exception {
        LeaderEpoch leadership = new LeaderEpoch(zk.newClient(), root, id);
        leadership.start();
        return leadership;
    }
}
