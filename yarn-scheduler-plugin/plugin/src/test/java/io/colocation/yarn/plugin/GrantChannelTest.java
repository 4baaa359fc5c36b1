package io.colocation.yarn.plugin;

import static io.colocation.testsupport.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The plugin's ZooKeeper side alone, against a real ZooKeeper. */
class GrantChannelTest {

    @Test
    void grantsArriveWithoutAnEpochNodeAndBadDocumentsAreReportedByPath() throws Exception {
        try (LocalZooKeeper zk = new LocalZooKeeper()) {
            Configuration conf = new Configuration(false);
            conf.set(PluginSettings.ZK_CONNECT, zk.connectString());
            conf.set(PluginSettings.CLUSTER_ID, "c1");
            List<String> events = new CopyOnWriteArrayList<>();
            BrokerWrites broker = new BrokerWrites(zk.newClient(), YarnContract.DEFAULT_ROOT, "c1");
            broker.grant(new YarnGrant("nm-1:8041", 1, 1, 2, 2048, 0));
            try (GrantChannel channel = new GrantChannel(PluginSettings.from(conf), new GrantChannel.Listener() {
                @Override
                public void grantChanged(YarnGrant grant) {
                    events.add("grant " + grant.nodeId() + " v" + grant.version());
                }

                @Override
                public void grantRemoved(String nodeId) {
                    events.add("removed " + nodeId);
                }

                @Override
                public void epochChanged(long epoch) {
                    events.add("epoch " + epoch);
                }

                @Override
                public void queueLimitsChanged(YarnQueueLimits limits) {
                    events.add("limits v" + limits.version() + " " + limits.queues().keySet());
                }

                @Override
                public void documentRejected(String path, String problem) {
                    events.add("rejected " + path);
                }
            })) {
                channel.start();
                until(Duration.ofSeconds(10), () -> events.contains("grant nm-1:8041 v1"));

                String badPath = YarnContract.grantPath(YarnContract.DEFAULT_ROOT, "c1", "nm-2:8041");
                broker.curator().create().forPath(badPath, "{\"vcores\": \"many\"}".getBytes(StandardCharsets.UTF_8));
                broker.curator().create().forPath(YarnContract.epochPath(YarnContract.DEFAULT_ROOT),
                        "two".getBytes(StandardCharsets.UTF_8));
                until(Duration.ofSeconds(10), () -> events.contains("rejected " + badPath)
                        && events.contains("rejected " + YarnContract.epochPath(YarnContract.DEFAULT_ROOT)));
                // Queue limits arrive whole; one whose capacity is above its maximum is refused by path.
                broker.queueLimits(new YarnQueueLimits(1, 1, Map.of("root.team-a", new YarnQueueLimits.Limit(1, 1024, 2, 2048)), -1, 0));
                until(Duration.ofSeconds(10), () -> events.contains("limits v1 [root.team-a]"));
                String limitsPath = YarnContract.queueLimitsPath(YarnContract.DEFAULT_ROOT, "c1");
                broker.curator().setData().forPath(limitsPath, ("{\"epoch\":1,\"version\":2,\"queues\":{\"root.team-a\":"
                        + "{\"capacityVcores\":4,\"capacityMemoryMB\":1024,\"maximumVcores\":2,\"maximumMemoryMB\":2048}},"
                        + "\"revokeAfterMillis\":-1,\"writtenAtMillis\":0}").getBytes(StandardCharsets.UTF_8));
                until(Duration.ofSeconds(10), () -> events.contains("rejected " + limitsPath));
                broker.curator().delete().forPath(YarnContract.grantPath(YarnContract.DEFAULT_ROOT, "c1", "nm-1:8041"));
                until(Duration.ofSeconds(10), () -> events.contains("removed nm-1:8041"));
                assertTrue(events.stream().noneMatch(e -> e.startsWith("grant nm-2")), String.valueOf(events));
                assertEquals(1, events.stream().filter(e -> e.startsWith("grant ")).count(), String.valueOf(events));
            }
        }
    }
}
