package io.colocation.broker.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnContractCodec;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnGrantAck;
import io.colocation.api.yarn.YarnNodeReport;
import io.colocation.testsupport.Await;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two broker replicas against a real ZooKeeper: one leader, fenced writes, resumption after failover. */
@ExtendWith(ZooKeeperExtension.class)
class YarnGrantPublisherTest {
    private static final String CLUSTER = "prod";
    private static final String NODE = "nm-1.example.com:8041";

    private static YarnGrant persisted(CuratorFramework client, String root) throws Exception {
        return new ObjectMapper().readValue(client.getData().forPath(YarnContract.grantPath(root, CLUSTER, NODE)),
                YarnGrant.class);
    }

    @Test
    void aDeposedLeaderCannotWriteAndTheNewLeaderResumesFromThePersistedGrants(LocalZooKeeper zk) throws Exception {
        String root = "/fencing";
        CuratorFramework clientA = zk.newClient();
        CuratorFramework clientB = zk.newClient();
        try (LeaderEpoch a = new LeaderEpoch(clientA, root, "a");
                YarnGrantPublisher publisherA = new YarnGrantPublisher(clientA, a, root, CLUSTER)) {
            a.start();
            publisherA.start();
            assertTrue(a.awaitLeadership(Duration.ofSeconds(10)));
            LeaderEpoch.Fence fenceA = a.fence().orElseThrow();
            publisherA.publish(NODE, 8, 16_384, 0, 0);
            YarnGrant second = publisherA.publish(NODE, 6, 12_288, 0, 0);
            assertEquals(fenceA.epoch(), second.epoch());
            assertEquals(2, second.version());

            try (LeaderEpoch b = new LeaderEpoch(clientB, root, "b");
                    YarnGrantPublisher publisherB = new YarnGrantPublisher(clientB, b, root, CLUSTER)) {
                b.start();
                publisherB.start();
                assertThrows(NotLeaderException.class, () -> publisherB.publish(NODE, 64, 1 << 20, 0, 0),
                        "a standby cannot write");

                a.close(); // leader A goes away (a real one would be partitioned and not know it yet)
                assertTrue(b.awaitLeadership(Duration.ofSeconds(10)), "the standby takes over");
                assertEquals(fenceA.epoch() + 1, b.fence().orElseThrow().epoch());
                var restamped = publisherB.restampAll();
                assertEquals(1, restamped.size());
                YarnGrant resumed = persisted(clientB, root);
                assertEquals(6, resumed.vcores(), "not inflated by the handover");
                assertEquals(12_288, resumed.memoryMB());
                assertEquals(b.fence().orElseThrow().epoch(), resumed.epoch());
                assertEquals(3, resumed.version(), "versions continue across leaders");

                // The deposed leader still holds its old fence and tries to inflate the grant.
                assertThrows(NotLeaderException.class, () -> publisherA.write(fenceA, NODE, 64, 1 << 20, 0, 0));
                assertEquals(resumed, persisted(clientB, root), "ZooKeeper refused the deposed leader's write");
            }
        }
    }

    @Test
    void anAcknowledgementOfTheSameEpochAndVersionCountsAsApplied(LocalZooKeeper zk) throws Exception {
        String root = "/acks";
        CuratorFramework client = zk.newClient();
        try (LeaderEpoch leader = new LeaderEpoch(client, root, "only");
                YarnGrantPublisher publisher = new YarnGrantPublisher(client, leader, root, CLUSTER)) {
            leader.start();
            publisher.start();
            assertTrue(leader.awaitLeadership(Duration.ofSeconds(10)));
            YarnGrant grant = publisher.publish(NODE, 4, 8_192, 6, 12_288);
            assertFalse(publisher.acknowledged(grant));
            assertEquals(grant, YarnContractCodec.read("grant", client.getData().forPath(YarnContract.grantPath(root, CLUSTER, NODE)),
                    YarnGrant.class), "the keep is persisted with the grant");
            YarnGrantAck ack = new YarnGrantAck(NODE, grant.epoch(), grant.version(), 4, 8_192, System.currentTimeMillis());
            client.create().orSetData().creatingParentsIfNeeded().forPath(YarnContract.ackPath(root, CLUSTER, NODE),
                    new ObjectMapper().writeValueAsBytes(ack));
            Await.until(Duration.ofSeconds(5), () -> publisher.acknowledged(grant));
            assertTrue(publisher.acknowledged(grant));

            // What the plugin reports comes back typed; a malformed document is ignored, not fatal.
            client.create().creatingParentsIfNeeded().forPath(YarnContract.nodeReportPath(root, CLUSTER, NODE),
                    new ObjectMapper().writeValueAsBytes(new YarnNodeReport(NODE, 3, 6_144, 3, 1)));
            client.create().creatingParentsIfNeeded().forPath(YarnContract.demandPath(root, CLUSTER),
                    "{not json".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            Await.until(Duration.ofSeconds(5), () -> publisher.nodeReport(NODE).isPresent());
            assertEquals(6_144, publisher.nodeReport(NODE).orElseThrow().allocatedMemoryMB());
            assertTrue(publisher.demand().isEmpty());
            assertThrows(IllegalArgumentException.class, () -> publisher.publish(NODE, -1, 8_192, 0, 0));
        }
    }

    /** What {@code takeChangedNodes} names over several calls, until it has named {@code expected} (5 s at most). */
    private static java.util.Set<String> takenUntil(YarnGrantPublisher publisher, java.util.Set<String> expected) throws Exception {
        java.util.Set<String> taken = new java.util.HashSet<>();
        Await.until(Duration.ofSeconds(5), () -> {
            taken.addAll(publisher.takeChangedNodes());
            return taken.containsAll(expected);
        });
        return taken;
    }

    @Test
    void theNodesWhoseDocumentsChangedAreTakenOnce(LocalZooKeeper zk) throws Exception {
        String root = "/changed";
        String other = "nm-2.example.com:8041";
        CuratorFramework client = zk.newClient();
        try (LeaderEpoch leader = new LeaderEpoch(client, root, "only");
                YarnGrantPublisher publisher = new YarnGrantPublisher(client, leader, root, CLUSTER)) {
            leader.start();
            publisher.start();
            assertTrue(leader.awaitLeadership(Duration.ofSeconds(10)));
            publisher.takeChangedNodes();
            client.create().creatingParentsIfNeeded().forPath(YarnContract.nodeReportPath(root, CLUSTER, other),
                    new ObjectMapper().writeValueAsBytes(new YarnNodeReport(other, 1, 1_024, 1, 1)));
            YarnGrant grant = publisher.publish(NODE, 2, 4_096, 0, 0);
            // the cache holds a document before its listener runs: gather what is taken until both have been named
            assertEquals(java.util.Set.of(NODE, other), takenUntil(publisher, java.util.Set.of(NODE, other)),
                    "a report and a grant name their nodes");
            assertEquals(java.util.Set.of(), publisher.takeChangedNodes(), "taken once");

            client.create().creatingParentsIfNeeded().forPath(YarnContract.ackPath(root, CLUSTER, NODE), new ObjectMapper()
                    .writeValueAsBytes(new YarnGrantAck(NODE, grant.epoch(), grant.version(), 2, 4_096, System.currentTimeMillis())));
            assertEquals(java.util.Set.of(NODE), takenUntil(publisher, java.util.Set.of(NODE)), "an acknowledgement names its node");
            assertTrue(publisher.acknowledged(grant));
            client.create().creatingParentsIfNeeded().forPath(YarnContract.demandPath(root, CLUSTER),
                    new ObjectMapper().writeValueAsBytes(new io.colocation.api.yarn.YarnDemand(1, 1_024, java.util.Map.of(), 1)));
            Await.until(Duration.ofSeconds(5), () -> publisher.demand().isPresent());
            assertEquals(java.util.Set.of(), publisher.takeChangedNodes(), "the cluster's demand is no node's document");
        }
    }
}
