package io.colocation.yarn.plugin;

import static io.colocation.testsupport.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.api.yarn.YarnQueues;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A tree's YARN leaves on real ResourceManagers (HA, the CapacityScheduler's configuration in the {@code memory}
 * store, queues {@code root.team-a}, {@code root.team-b} and {@code root.default} configured in percent): limits that
 * would leave a sibling in percent are refused with the sibling named (YARN refuses mixed modes); the broker's queue limits become
 * each queue's absolute {@code capacity} and {@code maximum-capacity}, as the scheduler and a YARN client
 * ({@code yarn queue -status}) report them; the queues document confirms the version in force; a deposed broker's
 * limits are ignored; a queue YARN does not have is named; and the RM that becomes active holds the limits again.
 */
class QueueLimitsOnResourceManagerTest {
    private static final String ROOT = "/colocation";
    private static final String CLUSTER = "tree-yarn";
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
        yarn = PluginInstall.into(MiniYarn.builder("queue-limits").nodeManagers(1).nodeSize(8192, 8).mapReduce(false)
                .highAvailability(zk.connectString())
                .set("yarn.scheduler.configuration.store.class", "memory")
                .set("yarn.scheduler.capacity.root.queues", "team-a,team-b,default")
                .set("yarn.scheduler.capacity.root.team-a.capacity", "40")
                .set("yarn.scheduler.capacity.root.team-b.capacity", "40")
                .set("yarn.scheduler.capacity.root.default.capacity", "20"), zk.connectString(), CLUSTER).start();
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
    void theTreesLimitsAreTheQueuesOwnAbsoluteCapacitiesAndSurviveAFailover() throws Exception {
        Map<String, YarnQueueLimits.Limit> queues = new TreeMap<>();
        queues.put("root.team-a", new YarnQueueLimits.Limit(2, 2048, 6, 6144));
        queues.put("root.team-b", new YarnQueueLimits.Limit(1, 1024, 2, 2048));
        broker.queueLimits(new YarnQueueLimits(EPOCH, 1, queues, -1, System.currentTimeMillis()));
        until(Duration.ofSeconds(20), () -> report() != null && report().limitsProblem() != null);
        assertTrue(report().limitsProblem().contains("root.default (capacity 20)"), report().toString());
        assertEquals(0, report().limitsVersion(), "nothing in force");
        assertEquals("40", setting(yarn.resourceManager(), "root.team-a", "capacity"));

        queues.put("root.default", new YarnQueueLimits.Limit(0, 1, 0, 1));
        broker.queueLimits(new YarnQueueLimits(EPOCH, 1, queues, -1, System.currentTimeMillis()));
        until(Duration.ofSeconds(20), () -> inForce(1) != null);
        ResourceManager first = yarn.resourceManager();
        assertLimits(first, "root.team-a", "[memory=2048,vcores=2]", "[memory=6144,vcores=6]");
        assertLimits(first, "root.team-b", "[memory=1024,vcores=1]", "[memory=2048,vcores=2]");
        YarnQueues report = inForce(1);
        assertNull(report.limitsProblem(), report.toString());
        YarnQueues.Queue teamA = report.queues().get("root.team-a");
        assertTrue(teamA.leaf(), report.toString());
        assertEquals(6, teamA.configuredMaximumVcores(), report.toString());
        assertEquals(6144, teamA.configuredMaximumMemoryMB(), report.toString());
        // What a YARN client is told (yarn queue -status): 6 of the node's 8 vcores and 6 of its 8 GiB, 75 %.
        try (YarnClient client = YarnClient.createYarnClient()) {
            client.init(yarn.config());
            client.start();
            QueueInfo info = client.getQueueInfo("team-a");
            assertEquals(0.75f, info.getMaximumCapacity(), 0.01f, info.toString());
        }

        // A deposed broker's limits are not applied.
        Map<String, YarnQueueLimits.Limit> inflated = new TreeMap<>(queues);
        inflated.put("root.team-b", new YarnQueueLimits.Limit(1, 1024, 8, 8192));
        broker.queueLimits(new YarnQueueLimits(EPOCH - 1, 9, inflated, -1, System.currentTimeMillis()));
        // A queue YARN does not have is named; the others are applied.
        Map<String, YarnQueueLimits.Limit> next = new TreeMap<>(queues);
        next.put("root.team-a", new YarnQueueLimits.Limit(2, 2048, 4, 4096));
        next.put("root.team-c", new YarnQueueLimits.Limit(1, 1024, 1, 1024));
        Thread.sleep(1500);
        assertLimits(yarn.resourceManager(), "root.team-b", "[memory=1024,vcores=1]", "[memory=2048,vcores=2]");
        assertEquals(1, report().limitsVersion(), report().toString());
        broker.queueLimits(new YarnQueueLimits(EPOCH, 2, next, -1, System.currentTimeMillis()));
        until(Duration.ofSeconds(20), () -> inForce(2) != null);
        assertLimits(yarn.resourceManager(), "root.team-a", "[memory=2048,vcores=2]", "[memory=4096,vcores=4]");
        assertTrue(String.valueOf(inForce(2).limitsProblem()).contains("no CapacityScheduler queue root.team-c"),
                inForce(2).toString());

        // The memory store dies with its RM: the newly active RM starts from the file's percentages and its plugin
        // makes the limits YARN's again.
        int before = yarn.activeResourceManager();
        int after = yarn.failOver(Duration.ofSeconds(30));
        assertNotEquals(before, after);
        ResourceManager second = yarn.cluster().getResourceManager(after);
        until(Duration.ofSeconds(30), () -> "[memory=4096,vcores=4]".equals(setting(second, "root.team-a", "maximum-capacity")));
        assertLimits(second, "root.team-b", "[memory=1024,vcores=1]", "[memory=2048,vcores=2]");
    }

    private static void assertLimits(ResourceManager rm, String queue, String capacity, String maximum) {
        assertEquals(capacity, setting(rm, queue, "capacity"), queue + " capacity");
        assertEquals(maximum, setting(rm, queue, "maximum-capacity"), queue + " maximum-capacity");
    }

    private static String setting(ResourceManager rm, String queue, String key) {
        CapacityScheduler cs = (CapacityScheduler) rm.getResourceScheduler();
        return cs.getConfiguration().get("yarn.scheduler.capacity." + queue + "." + key);
    }

    private static YarnQueues report() {
        return broker.read(YarnContract.queuesPath(ROOT, CLUSTER), YarnQueues.class);
    }

    /** The queues report once it says version {@code version} of epoch {@link #EPOCH} is in force, else null. */
    private static YarnQueues inForce(long version) {
        YarnQueues report = report();
        return report != null && report.limitsEpoch() == EPOCH && report.limitsVersion() == version ? report : null;
    }
}
