package io.colocation.broker.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.api.yarn.YarnQueues;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.broker.yarn.PluginYarnSide;
import io.colocation.broker.yarn.PluginYarnSideTest;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.yarn.SleepJobs;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.model.document.KubeDocuments;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.testsupport.Await;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tree over 6 Batch cores with a YARN leaf ({@code root.team-a}) and a Kubernetes leaf (namespace team-b, whose
 * running pod holds 2 cores), on real systems: ZooKeeper, a ResourceManager with the scheduler plugin and a
 * NodeManager larger than the tree, the broker's leader keeping the YARN leaves. team-a's job asks for more than the
 * tree has left; the queue's {@code maximum-capacity}, as YARN holds it, becomes team-a's runtime (the 4 cores team-b
 * leaves), and YARN allocates no more than that to the queue while the job asks for more.
 */
class YarnLeafLimitsOnResourceManagerTest {
    private static final String ROOT = "/colocation-tree";
    private static final String CLUSTER = "tree-yarn";

    @Test
    void theYarnLeafsQueueHoldsItsRuntimeInTheTree(@TempDir Path work) throws Exception {
        List<ElasticQuotaSpec> quotas = new ArrayList<>();
        for (KubeDocuments.Sourced d : KubeDocuments.read("src/test/resources/quota/yarn-tree.yaml", null)) {
            quotas.add(ElasticQuotaSpec.read(d.object()));
        }
        Pod teamB = new PodBuilder().withNewMetadata().withName("executor-1").withNamespace("team-b").endMetadata()
                .withNewSpec().withNodeName("node-1").addNewContainer().withName("spark").withNewResources()
                .addToRequests("kubernetes.io/batch-cpu", new Quantity("2000"))
                .addToRequests("kubernetes.io/batch-memory", new Quantity("2Gi")).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build();
        try (LocalZooKeeper zk = new LocalZooKeeper();
                CuratorFramework curator = zk.newClient();
                MiniYarn yarn = PluginYarnSideTest.withPlugin(MiniYarn.builder("tree-leaves").nodeManagers(1).nodeSize(12288, 10), zk,
                        ROOT, CLUSTER)
                        .set("yarn.scheduler.configuration.store.class", "memory")
                        .set("yarn.scheduler.capacity.root.queues", "team-a,team-b")
                        // As an admin of absolute queues has them (YARN keeps siblings in one mode).
                        .set("yarn.scheduler.capacity.root.team-a.capacity", "[memory=4096,vcores=4]")
                        .set("yarn.scheduler.capacity.root.team-b.capacity", "[memory=4096,vcores=4]")
                        // One user's limit is capacity x user-limit-factor: let the job reach the queue's maximum.
                        .set("yarn.scheduler.capacity.root.team-a.user-limit-factor", "10").start();
                LeaderEpoch leadership = new LeaderEpoch(curator, ROOT, "broker-0");
                PluginYarnSide side = new PluginYarnSide(curator, leadership, ROOT, CLUSTER, Duration.ofSeconds(5), Clock.systemUTC())) {
            leadership.start();
            assertTrue(leadership.awaitLeadership(Duration.ofSeconds(20)));
            side.start(() -> { });
            YarnLeafLimitsKeeper keeper = new YarnLeafLimitsKeeper(side, () -> List.of(teamB), leadership, () -> 0.1, -1, Clock.systemUTC());
            Await.until(Duration.ofSeconds(30), () -> side.queues().isPresent());

            Configuration conf = new Configuration(yarn.config());
            conf.set("mapreduce.job.queuename", "team-a");
            conf.set("yarn.app.mapreduce.am.resource.mb", "512");
            Job job = SleepJobs.submit(conf, 12, 60_000, work.resolve("job"));
            CapacityScheduler cs = (CapacityScheduler) yarn.resourceManager().getResourceScheduler();
            // The broker's rounds (every 10 s in the broker, every second here): the queue opens as team-a asks.
            String[] seen = new String[1];
            try {
                Await.until(Duration.ofSeconds(120), () -> {
                    keeper.keep(quotas);
                    YarnQueues.Queue a = side.queues().map(q -> q.queues().get("root.team-a")).orElse(null);
                    seen[0] = a + " " + side.queueLimits().orElse(null);
                    return a != null && a.allocatedVcores() == 4 && a.pendingVcores() > 0;
                });
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("team-a never held its 4 cores with asks pending: " + seen[0] + "; job "
                        + job.getStatus().getState(), e);
            }
            YarnQueueLimits limits = side.queueLimits().orElseThrow();
            YarnQueues.Queue a = side.queues().orElseThrow().queues().get("root.team-a");
            // team-a's runtime: the 6 cores less the 2 team-b's pod holds; memory: what team-a asks (16 GiB is far), to within
            // the 10 % a change must exceed to be published.
            YarnQueueLimits.Limit limit = limits.queues().get("root.team-a");
            long asked = a.allocatedMemoryMB() + a.pendingMemoryMB();
            assertEquals(4, limit.maximumVcores(), seen[0]);
            assertTrue(limit.maximumMemoryMB() <= asked && limit.maximumMemoryMB() * 1.1 >= asked, asked + " MiB asked: " + seen[0]);
            assertEquals(2, limit.capacityVcores(), "the min");
            assertEquals(2048, limit.capacityMemoryMB(), "the min");
            assertEquals(limit.maximumCapacity(), cs.getConfiguration().get("yarn.scheduler.capacity.root.team-a.maximum-capacity"));
            assertEquals("[memory=2048,vcores=2]", cs.getConfiguration().get("yarn.scheduler.capacity.root.team-a.capacity"));
            assertEquals(Map.of("root.team-a", limits.queues().get("root.team-a")), limits.queues(), "only the tree's YARN queues");
            // Held there: several more rounds, the same version, YARN still at 4 cores for team-a.
            long version = limits.version();
            for (int i = 0; i < 3; i++) {
                Thread.sleep(1000);
                keeper.keep(quotas);
            }
            assertEquals(version, side.queueLimits().orElseThrow().version());
            assertEquals(4, side.queues().orElseThrow().queues().get("root.team-a").allocatedVcores());
            job.killJob();
        }
    }
}
