package io.colocation.yarn.plugin;

import static io.colocation.testsupport.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnGrantAck;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import java.time.Duration;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.junit.jupiter.api.Test;

/** The same policy, unchanged, with the FairScheduler: the mechanism is scheduler-neutral. */
class FairSchedulerGrantTest {

    @Test
    void theFairSchedulerAppliesAndAcknowledgesGrants() throws Exception {
        try (LocalZooKeeper zk = new LocalZooKeeper();
                MiniYarn yarn = MiniYarn.builder("fair-grants").nodeManagers(1).nodeSize(4096, 4).mapReduce(false)
                        .scheduler(FairScheduler.class)
                        .set("yarn.resourcemanager.scheduler.monitor.enable", "true")
                        .set("yarn.resourcemanager.scheduler.monitor.policies", BatchGrantEditPolicy.class.getName())
                        .set(PluginSettings.ZK_CONNECT, zk.connectString())
                        .set(PluginSettings.INTERVAL, "200")
                        .start()) {
            BrokerWrites broker = new BrokerWrites(zk.newClient(), YarnContract.DEFAULT_ROOT, YarnContract.DEFAULT_CLUSTER_ID);
            broker.epoch(1);
            NodeId node = yarn.runningNodes().get(0).getNodeId();
            broker.grant(new YarnGrant(node.toString(), 1, 1, 3, 3072, System.currentTimeMillis()));
            until(Duration.ofSeconds(10), () -> {
                YarnGrantAck ack = broker.read(YarnContract.ackPath(YarnContract.DEFAULT_ROOT,
                        YarnContract.DEFAULT_CLUSTER_ID, node.toString()), YarnGrantAck.class);
                return ack != null && ack.version() == 1;
            });
            NodeReport report = yarn.runningNodes().get(0);
            assertEquals(Resource.newInstance(3072, 3), report.getCapability());
        }
    }
}
