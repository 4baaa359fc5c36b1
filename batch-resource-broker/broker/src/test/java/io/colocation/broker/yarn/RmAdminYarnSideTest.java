package io.colocation.broker.yarn;

import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;

/**
 * {@link YarnSideContractTest} for a ResourceManager without the plugin: updateNodeResource through the
 * RM admin protocol, configured as an operator would, from {@code <clusterId>.yarn-site.xml} in a directory.
 */
class RmAdminYarnSideTest extends YarnSideContractTest {

    @Override
    protected MiniYarn startYarn(LocalZooKeeper zk) {
        return MiniYarn.builder("rm-admin-side").nodeManagers(2).nodeSize(4096, 4).mapReduce(false)
                .highAvailability(zk.connectString())
                .set("yarn.scheduler.capacity.resource-calculator", "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator")
                .start();
    }

    @Override
    protected YarnSide side(MiniYarn yarn, CuratorFramework curator, LeaderEpoch leadership) {
        try {
            // in the module's build directory, not /tmp: the contract test's lifecycle has no per-class temp dir
            Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "rm-admin-conf");
            try (var out = Files.newOutputStream(dir.resolve(CLUSTER + ".yarn-site.xml"))) {
                yarn.config().writeXml(out);
            }
            Configuration conf = YarnClusterConfigs.load(dir, CLUSTER);
            return new RmAdminYarnSide(CLUSTER, conf, null, curator, leadership, ROOT, Duration.ofMillis(300),
                    Duration.ofSeconds(5), Clock.systemUTC());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
