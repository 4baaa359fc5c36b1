package io.colocation.yarn.plugin;

import static io.colocation.testsupport.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnGrantAck;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ResourceManager HA as Hadoop admins run it: two RMs with the plugin installed by configuration, automatic
 * failover through ZooKeeper. When the active RM stops, the plugin on the newly active RM reads the grants
 * from ZooKeeper and makes them each node's capacity again as soon as the NodeManager has re-registered, and
 * acknowledges them. The plugin runs at its default interval (500 ms), as in production.
 */
class ResourceManagerFailoverTest {
    private static final String ROOT = "/colocation";
    private static final String CLUSTER = "ha-yarn";
    private static final long EPOCH = 7;

    private static LocalZooKeeper zk;
    private static CuratorFramework curator;
    private static MiniYarn yarn;
    private static BrokerWrites broker;

    @BeforeAll
    static void start() throws Exception {
        zk = new LocalZooKeeper();
        curator = zk.newClient();
        broker = new BrokerWrites(curator, ROOT, CLUSTER);
        broker.epoch(EPOCH);
        yarn = PluginInstall.into(MiniYarn.builder("rm-failover").nodeManagers(2).nodeSize(4096, 4).mapReduce(false)
                .highAvailability(zk.connectString()), zk.connectString(), CLUSTER).start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (yarn != null) {
            yarn.close();
        }
        if (zk != null) {
            zk.close();
        }
    }

    @Test
    void theNewActiveResourceManagerEnforcesAndAcknowledgesEveryGrantWithinOneSecondOfTheNodeRegistering()
            throws Exception {
        List<NodeId> nodes = yarn.runningNodes().stream().map(NodeReport::getNodeId).sorted().toList();
        assertEquals(2, nodes.size());
        Map<NodeId, Resource> granted = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            Resource grant = Resource.newInstance(1024 + 512 * i, 1 + i);
            granted.put(nodes.get(i), grant);
            broker.grant(new YarnGrant(nodes.get(i).toString(), EPOCH, 1, grant.getVirtualCores(),
                    grant.getMemorySize(), System.currentTimeMillis()));
        }
        ResourceManager first = yarn.resourceManager();
        until(Duration.ofSeconds(20), () -> nodes.stream().allMatch(n -> granted.get(n).equals(total(first, n)))
                && nodes.stream().allMatch(n -> ack(n) != null));

        int before = yarn.activeResourceManager();
        long stoppedAtMillis = System.currentTimeMillis();
        long stopped = System.nanoTime();
        int after = yarn.failOver(Duration.ofSeconds(30));
        long active = System.nanoTime();
        assertNotEquals(before, after);
        ResourceManager second = yarn.cluster().getResourceManager(after);

        // Follow each node on the new RM (polled every 20 ms): when it registered, when its grant was its capacity again.
        Map<NodeId, Long> registered = new HashMap<>();
        Map<NodeId, Long> enforced = new HashMap<>();
        until(Duration.ofSeconds(60), () -> {
            long now = System.nanoTime();
            for (NodeId n : nodes) {
                Resource total = total(second, n);
                if (total != null) {
                    registered.putIfAbsent(n, now);
                }
                if (granted.get(n).equals(total)) {
                    enforced.putIfAbsent(n, now);
                }
            }
            return enforced.size() == nodes.size();
        });
        StringBuilder timeline = new StringBuilder("rm" + before + " stopped; rm" + after + " active after "
                + millis(stopped, active) + " ms");
        for (NodeId n : nodes) {
            long from = Math.max(active, registered.get(n));
            timeline.append("; ").append(n).append(" registered +").append(millis(stopped, registered.get(n)))
                    .append(" ms, grant enforced +").append(millis(stopped, enforced.get(n))).append(" ms");
            assertTrue(millis(from, enforced.get(n)) <= 1000, "grant of " + n + " re-applied "
                    + millis(from, enforced.get(n)) + " ms after the node was on the active RM: " + timeline);
        }
        System.out.println("RM failover: " + timeline);

        // The new RM's plugin acknowledges the grants it enforces (the broker reads this to trust them again).
        until(Duration.ofSeconds(5), () -> nodes.stream().allMatch(n -> ack(n).appliedAtMillis() >= stoppedAtMillis));
        for (NodeId n : nodes) {
            YarnGrantAck ack = ack(n);
            assertEquals(EPOCH, ack.epoch());
            assertEquals(granted.get(n).getVirtualCores(), ack.vcores());
            assertEquals(granted.get(n).getMemorySize(), ack.memoryMB());
        }
    }

    private static long millis(long fromNanos, long toNanos) {
        return (toNanos - fromNanos) / 1_000_000;
    }

    private static YarnGrantAck ack(NodeId node) {
        return broker.read(YarnContract.ackPath(ROOT, CLUSTER, node.toString()), YarnGrantAck.class);
    }

    /** The node's capacity in {@code rm}'s scheduler, or null while it is not registered there. */
    private static Resource total(ResourceManager rm, NodeId node) {
        SchedulerNode sn = rm.getResourceScheduler().getSchedulerNode(node);
        return sn == null ? null : sn.getTotalResource();
    }
}
