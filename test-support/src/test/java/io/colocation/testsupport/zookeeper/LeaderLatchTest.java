package io.colocation.testsupport.zookeeper;

import io.colocation.localclusters.zookeeper.LocalZooKeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The test ZooKeeper is a real one: Curator leader election works and leadership moves on close. */
@ExtendWith(ZooKeeperExtension.class)
class LeaderLatchTest {

    @Test
    void oneLeaderAndLeadershipMovesWhenItCloses(LocalZooKeeper zk) throws Exception {
        LeaderLatch first = new LeaderLatch(zk.newClient(), "/test/leader", "first");
        LeaderLatch second = new LeaderLatch(zk.newClient(), "/test/leader", "second");
        first.start();
        second.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!first.hasLeadership() && !second.hasLeadership() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(first.hasLeadership() ^ second.hasLeadership(), "exactly one leader");
            LeaderLatch leader = first.hasLeadership() ? first : second;
            LeaderLatch standby = leader == first ? second : first;
            assertEquals(leader.getId(), standby.getLeader().getId());

            leader.close();
            assertTrue(standby.await(10, TimeUnit.SECONDS), "the standby takes over");
            assertFalse(leader.hasLeadership());
            assertEquals(standby.getId(), standby.getLeader().getId());
        } finally {
            for (LeaderLatch latch : new LeaderLatch[] {first, second}) {
                if (latch.getState() == LeaderLatch.State.STARTED) {
                    latch.close();
                }
            }
        }
    }
}
