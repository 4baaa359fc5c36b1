package io.colocation.broker.yarn;

import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.yarn.plugin.BatchGrantEditPolicy;
import java.time.Clock;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;

/** {@link YarnSideContractTest} for a ResourceManager running the real colocation scheduler plugin. */
public class PluginYarnSideTest extends YarnSideContractTest {

    /** A MiniYARNCluster whose ResourceManager runs the real plugin against {@code zk}. */
    public static MiniYarn.Builder withPlugin(MiniYarn.Builder builder, LocalZooKeeper zk, String root, String clusterId) {
        return builder.set("yarn.scheduler.capacity.resource-calculator", "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator")
                .set("yarn.resourcemanager.scheduler.monitor.enable", "true")
                .set("yarn.resourcemanager.scheduler.monitor.policies", BatchGrantEditPolicy.class.getName())
                .set("colocation.yarn.zookeeper.connect", zk.connectString())
                .set("colocation.yarn.zookeeper.root", root)
                .set("colocation.yarn.cluster-id", clusterId)
                .set("colocation.yarn.plugin.interval-ms", "200")
                .set("colocation.yarn.report.refresh-ms", "1000");
    }

    @Override
    protected MiniYarn startYarn(LocalZooKeeper zk) {
        return withPlugin(MiniYarn.builder("plugin-side").nodeManagers(2).nodeSize(4096, 4).mapReduce(false)
                .highAvailability(zk.connectString()), zk, ROOT,
                CLUSTER).start();
    }

    @Override
    protected YarnSide side(MiniYarn yarn, CuratorFramework curator, LeaderEpoch leadership) {
        return new PluginYarnSide(curator, leadership, ROOT, CLUSTER, Duration.ofSeconds(5), Clock.systemUTC());
    }
}
