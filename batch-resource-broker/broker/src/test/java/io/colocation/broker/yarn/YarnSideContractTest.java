package io.colocation.broker.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.testsupport.Await;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.Resource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The contract every {@link YarnSide} keeps, run against a real MiniYARNCluster and a real ZooKeeper:
 * it lists the NodeManagers and their allocation, applies a published grant as the node's capacity in
 * the ResourceManager and says so (no grant then left unconfirmed), keeps it when the active RM restarts and through failovers of an RM HA
 * pair (ZooKeeper-elected, as in production), reaches whichever RM is active, and refuses to publish
 * without the lead.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class YarnSideContractTest {
    static final String ROOT = "/contract";
    static final String CLUSTER = "contract-cluster";

    protected LocalZooKeeper zk;
    protected CuratorFramework curator;
    protected LeaderEpoch leadership;
    protected MiniYarn yarn;
    protected YarnSide side;

    /** The cluster, configured as this implementation needs (the plugin installed, or not). */
    protected abstract MiniYarn startYarn(LocalZooKeeper zk);

    protected abstract YarnSide side(MiniYarn yarn, CuratorFramework curator, LeaderEpoch leadership);

    @BeforeAll
    void start() throws Exception {
        zk = new LocalZooKeeper();
        curator = zk.newClient();
        leadership = new LeaderEpoch(curator, ROOT, "contract");
        leadership.start();
        assertTrue(leadership.awaitLeadership(Duration.ofSeconds(20)));
        yarn = startYarn(zk);
        side = side(yarn, curator, leadership);
        side.start(() -> { });
    }

    @AfterAll
    void stop() throws Exception {
        if (side != null) {
            side.close();
        }
        if (yarn != null) {
            yarn.close();
        }
        leadership.close();
        zk.close();
    }

    private Set<String> nodeIds() throws Exception {
        return yarn.runningNodes().stream().map(n -> n.getNodeId().toString()).collect(Collectors.toSet());
    }

    private Resource capacity(String nodeId) throws Exception {
        return yarn.runningNodes().stream().filter(n -> n.getNodeId().toString().equals(nodeId)).findFirst()
                .map(NodeReport::getCapability).orElse(null);
    }

    @Test
    @Order(1)
    void listsTheNodeManagersWithTheirAllocation() throws Exception {
        Set<String> ids = nodeIds();
        Await.until(Duration.ofSeconds(20), () -> Set.copyOf(side.knownNodes()).equals(ids)
                && ids.stream().allMatch(side::reachable));
        for (String id : ids) {
            assertEquals(new YarnSide.Usage(0, 0), side.used(id).orElseThrow());
        }
        assertTrue(side.health().healthy(), side.health().message());
    }

    @Test
    @Order(2)
    void appliesAPublishedGrantAndKeepsItThroughRmFailovers() throws Exception {
        String node = List.copyOf(nodeIds()).get(0);
        YarnGrant grant = side.publish(node, 2, 1536, YarnSide.Usage.NONE);
        assertEquals(leadership.fence().orElseThrow().epoch(), grant.epoch());
        Await.until(Duration.ofSeconds(10), () -> Resource.newInstance(1536, 2).equals(capacityOrNull(node))
                && side.applied(node).map(u -> u.equals(new YarnSide.Usage(2, 1536))).orElse(false));
        assertEquals(2, side.grant(node).orElseThrow().vcores());
        // Confirmed: no grant it might still enforce is left beside the one in force.
        Await.until(Duration.ofSeconds(10), () -> side.unconfirmed(node).isEmpty());

        // The active RM restarts: the standby takes over with every node at its NodeManager's own totals,
        // and the grant comes back.
        int first = yarn.activeResourceManager();
        yarn.cluster().restartResourceManager(first);
        assertNotEquals(first, yarn.activeResourceManager(), "the standby took over while the active restarted");
        Await.until(Duration.ofSeconds(60), () -> Resource.newInstance(1536, 2).equals(capacityOrNull(node)));
        Await.until(Duration.ofSeconds(20), () -> side.reachable(node)
                && side.applied(node).map(u -> u.equals(new YarnSide.Usage(2, 1536))).orElse(false));

        // A new grant reaches the RM that is active now (Hadoop's proxies followed the failover) ...
        side.publish(node, 3, 2048, YarnSide.Usage.NONE);
        Await.until(Duration.ofSeconds(20), () -> Resource.newInstance(2048, 3).equals(capacityOrNull(node))
                && side.applied(node).map(u -> u.equals(new YarnSide.Usage(3, 2048))).orElse(false));

        // ... and survives a failover back to the restarted RM.
        assertEquals(first, yarn.failOver(Duration.ofSeconds(30)));
        Await.until(Duration.ofSeconds(60), () -> Resource.newInstance(2048, 3).equals(capacityOrNull(node)));
        Await.until(Duration.ofSeconds(20), () -> side.reachable(node)
                && side.applied(node).map(u -> u.equals(new YarnSide.Usage(3, 2048))).orElse(false));
    }

    private Resource capacityOrNull(String node) {
        try {
            return capacity(node);
        } catch (Exception rmRestarting) {
            return null;
        }
    }

    @Test
    @Order(3)
    void refusesToPublishWithoutTheLead() throws Exception {
        String node = List.copyOf(nodeIds()).get(0);
        CuratorFramework other = zk.newClient();
        LeaderEpoch follower = new LeaderEpoch(other, ROOT, "follower");
        follower.start();
        try (YarnSide standby = side(yarn, other, follower)) {
            standby.start(() -> { });
            assertThrows(NotLeaderException.class, () -> standby.publish(node, 4, 4096, YarnSide.Usage.NONE));
        } finally {
            follower.close();
            other.close();
        }
        assertEquals(Resource.newInstance(2048, 3), capacity(node), "a refused grant changes nothing");
    }
}
