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
import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaStatus;
import io.colocation.quota.QuotaUnits;
import io.colocation.quota.ResourceAmounts;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tree over 6 Batch cores with a YARN leaf ({@code root.team-a}) and a Kubernetes leaf (namespace team-b, whose
 * running pod holds 2 cores), on real systems: a kube-apiserver with the tree's ElasticQuotas, ZooKeeper, a
 * ResourceManager with the scheduler plugin and a NodeManager larger than the tree, the broker's leader keeping the
 * trees' runtimes. team-a's job asks for more than the tree has left; the queue's {@code maximum-capacity}, as YARN
 * holds it, becomes team-a's runtime (the 4 cores team-b leaves), YARN allocates no more than that to the queue while
 * the job asks for more, and team-b's quota carries its runtime (its pod's 2 cores) for the scheduler. Then team-b asks
 * for 2 cores more: YARN's limit shrinks to 3 cores first, and team-b's runtime grows to 3 only once YARN holds it.
 */
@ExtendWith(KubeApiServerExtension.class)
class TreeRuntimesOnResourceManagerTest {
    private static final String ROOT = "/colocation-tree";
    private static final String CLUSTER = "tree-yarn";
    private static final String EQ = "scheduling.sigs.k8s.io/v1alpha1";

    /** The tree's ElasticQuotas as the leader lists them each round. */
    private static List<TreeTotalKeeper.Listed> listed(KubernetesClient client) {
        List<TreeTotalKeeper.Listed> out = new ArrayList<>();
        for (GenericKubernetesResource r : client.genericKubernetesResources(EQ, "ElasticQuota").inAnyNamespace().list().getItems()) {
            JsonNode object = Serialization.jsonMapper().valueToTree(r);
            try {
                out.add(TreeTotalKeeper.Listed.of(object));
            } catch (io.colocation.api.InvalidInputException e) {
                throw new AssertionError(e);
            }
        }
        return out;
    }

    @AfterAll
    static void removeQuotas(KubernetesClient client) {
        client.genericKubernetesResources(EQ, "ElasticQuota").inAnyNamespace().delete();
        List.of("team-a", "team-b").forEach(ns -> client.namespaces().withName(ns).delete());
    }

    @Test
    void theYarnLeafsQueueHoldsItsRuntimeInTheTree(KubernetesClient client, @TempDir Path work) throws Exception {
        ColocationObjects.installCrd(client, Path.of("../../conf/kubernetes/crds/scheduling.sigs.k8s.io_elasticquotas.yaml"), EQ, "ElasticQuota");
        for (String ns : List.of("koordinator-system", "team-a", "team-b")) {
            if (client.namespaces().withName(ns).get() == null) {
                ColocationObjects.namespace(client, ns);
            }
        }
        for (KubeDocuments.Sourced d : KubeDocuments.read("src/test/resources/quota/yarn-tree.yaml", null)) {
            client.genericKubernetesResources(EQ, "ElasticQuota").inNamespace(d.object().path("metadata").path("namespace").asText())
                    .resource(Serialization.jsonMapper().treeToValue(d.object(), GenericKubernetesResource.class)).create();
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
            List<Pod> teamBPods = new java.util.concurrent.CopyOnWriteArrayList<>(List.of(teamB));
            TreeRuntimesKeeper keeper = new TreeRuntimesKeeper(client, side, () -> teamBPods, leadership, () -> 0.1, -1, Clock.systemUTC());
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
                    keeper.keep(listed(client));
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
                keeper.keep(listed(client));
            }
            assertEquals(version, side.queueLimits().orElseThrow().version());
            assertEquals(4, side.queues().orElseThrow().queues().get("root.team-a").allocatedVcores());
            // The Kubernetes leaf's runtime, as the scheduler admits team-b's pods by: what its pod holds.
            Map<String, String> annotations = client.genericKubernetesResources(EQ, "ElasticQuota").inNamespace("team-b")
                    .withName("team-b-k8s").get().getMetadata().getAnnotations();
            assertEquals(ResourceAmounts.of("kubernetes.io/batch-cpu", 2000L, "kubernetes.io/batch-memory", 2L << 30),
                    QuotaUnits.readOrNull(annotations.get(QuotaStatus.RUNTIME)));
            // The broker writes what the scheduler would of the quotas it computes: a YARN leaf's used is its queue's.
            GenericKubernetesResource yarnLeaf = client.genericKubernetesResources(EQ, "ElasticQuota").inNamespace("team-a").withName("team-a-yarn").get();
            @SuppressWarnings("unchecked")
            Map<String, String> used = (Map<String, String>) ((Map<String, Object>) yarnLeaf.getAdditionalProperties().get("status")).get("used");
            assertEquals("4k", used.get("kubernetes.io/batch-cpu"), "the queue's 4 vcores: " + used);

            // team-b asks 2 cores more: both now ask beyond their min of 2, and the 2 cores left are shared by weight (their
            // max, equal): team-b's runtime grows to 3, team-a's shrinks to 3. YARN's shrink goes first; team-b grows only once
            // YARN holds it.
            teamBPods.add(new PodBuilder(teamB).editMetadata().withName("executor-2").endMetadata().build());
            keeper.keep(listed(client));
            YarnQueueLimits shrunk = side.queueLimits().orElseThrow();
            assertEquals(3, shrunk.queues().get("root.team-a").maximumVcores(), shrunk.toString());
            assertEquals(ResourceAmounts.of("kubernetes.io/batch-cpu", 2000L, "kubernetes.io/batch-memory", 2L << 30),
                    QuotaUnits.readOrNull(runtimeOf(client, "team-b-k8s")), "team-b waits for YARN to hold the shrink");
            Await.until(Duration.ofSeconds(30), () -> {
                keeper.keep(listed(client));
                return runtimeOf(client, "team-b-k8s").contains("\"3k\"");
            });
            YarnQueues held = side.queues().orElseThrow();
            assertTrue(held.limitsEpoch() == shrunk.epoch() && held.limitsVersion() >= shrunk.version(), held.toString());
            assertEquals("[memory=" + shrunk.queues().get("root.team-a").maximumMemoryMB() + ",vcores=3]",
                    cs.getConfiguration().get("yarn.scheduler.capacity.root.team-a.maximum-capacity"));
            job.killJob();
        }
    }

    private static String runtimeOf(KubernetesClient client, String quota) {
        return client.genericKubernetesResources(EQ, "ElasticQuota").inAnyNamespace().list().getItems().stream()
                .filter(q -> q.getMetadata().getName().equals(quota)).findFirst().orElseThrow().getMetadata().getAnnotations()
                .get(QuotaStatus.RUNTIME);
    }
}
