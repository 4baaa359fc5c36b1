package io.colocation.broker.service;

import io.colocation.broker.service.health.BrokerHealthChecks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import io.colocation.api.KoordinatorKeys;
import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnContractCodec;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.testsupport.Await;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.colocation.testsupport.yarn.SimulatedYarnPlugin;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import io.colocation.kube.client.NodeAnnotationPatch;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One bad object never stops the pass (issue: reliability), against a real API server and ZooKeeper: a
 * NodeMetric, a reservation or a thirdPartyAllocations annotation an attacker or a bug made absurd, a
 * negative YARN report, a corrupt epoch, a malformed ConfigMap across a restart, ZooKeeper down.
 */
@ExtendWith({KubeApiServerExtension.class, ZooKeeperExtension.class})
class FaultIsolationTest {
    private static final String TEST = "faults";
    private static final String NS = "broker-faults";
    private static final String CLUSTER = "yarn-f";
    private static final long GI = 1024L * 1024 * 1024;
    private static int round;

    private String good;
    private String root;
    private Broker broker;
    private CuratorFramework zkClient;
    private SimulatedYarnPlugin yarn;

    @BeforeEach
    void objects(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        round++;
        good = "fault-good-" + round;
        root = "/faults" + round;
        ColocationObjects.installNodeMetricCrd(client, KubeFixtures.CRD);
        ColocationObjects.namespace(client, NS);
        ColocationObjects.enableColocation(client, NS, null);
        ColocationObjects.node(client, good, TEST, 16, 64);
        ColocationObjects.nodeMetric(client, good, TEST, 4000, 16 * GI, Instant.now());
        zkClient = zk.newClient();
    }

    @AfterEach
    void stop(KubernetesClient client) {
        if (broker != null) {
            broker.stop();
            broker = null;
        }
        if (yarn != null) {
            yarn.close();
            yarn = null;
        }
        zkClient.close();
        ColocationObjects.cleanUp(client, TEST, NS);
    }

    private Broker start(KubernetesClient client, LocalZooKeeper zk, boolean withYarn) throws Exception {
        BrokerConfiguration config = KubeFixtures.config(zk.connectString(), root, NS, "partitioned");
        if (withYarn) {
            config.yarn.clusters.add(KubeFixtures.pluginCluster(CLUSTER));
        }
        Broker b = new Broker(config, client, Clock.systemUTC());
        b.start();
        assertTrue(b.leadership().awaitLeadership(Duration.ofSeconds(20)));
        return b;
    }

    /** The good node with a NodeManager on a simulated YARN plugin, the broker started and both sides settled. */
    private void startWithNodeManager(KubernetesClient client, LocalZooKeeper zk, String nodeId) throws Exception {
        ColocationObjects.nodeManagerPod(client, NS, good, nodeId, CLUSTER);
        yarn = new SimulatedYarnPlugin(zk.newClient(), root, CLUSTER, Set.of(nodeId), 300);
        broker = start(client, zk, true);
        Await.until(Duration.ofSeconds(20), () -> ledger(good) != null && ledger(good).yarn() != null
                && ledger(good).yarn().acknowledged() && KubeFixtures.batchAllocatable(client, good) != null
                && KubeFixtures.batchAllocatable(client, good)[0] == ledger(good).kubernetesGrant().cpuMilli());
    }

    private NodeLedger ledger(String node) {
        return broker.ledger().get(node).orElse(null);
    }

    private static Map<String, HealthCheck.Result> health(Broker broker) {
        HealthCheckRegistry registry = new HealthCheckRegistry();
        BrokerHealthChecks.register(registry, BrokerHealthChecks.Parts.of(broker), List.of());
        return registry.runHealthChecks();
    }

    /** As a third party annotates a Node it shares with the running broker: a merge patch of the one annotation. */
    private static void annotate(KubernetesClient client, String node, String key, String value) {
        NodeAnnotationPatch.set(client, node, key, value);
    }

    @Test
    void oneNodesBadInputsLeaveEveryOtherNodePublishedAndAreReported(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        String badMetric = "fault-metric-" + round;
        String badReservation = "fault-reservation-" + round;
        String badThirdParty = "fault-thirdparty-" + round;
        for (String n : List.of(badMetric, badReservation, badThirdParty)) {
            ColocationObjects.node(client, n, TEST, 16, 64);
            ColocationObjects.nodeMetric(client, n, TEST, 4000, 16 * GI, Instant.now());
        }
        // The shipped CRD accepts any string in a quantity: an exponent no machine has.
        var metrics = client.genericKubernetesResources(KoordinatorKeys.NODE_METRIC_API_VERSION, KoordinatorKeys.NODE_METRIC_KIND);
        GenericKubernetesResource nm = metrics.withName(badMetric).get();
        Map<String, Object> usage = Map.of("resources", Map.of("cpu", "1e-2147483648", "memory", "1Gi"));
        nm.setAdditionalProperty("status", Map.of("updateTime", Instant.now().toString(),
                "nodeMetric", Map.of("nodeUsage", usage, "systemUsage", usage), "podsMetric", List.of()));
        metrics.resource(nm).updateStatus();
        annotate(client, badReservation, KoordinatorKeys.ANNOTATION_NODE_RESERVATION, "{\"reservedCPUs\":\"0-99999999999\"}");
        broker = start(client, zk, false);
        Await.until(Duration.ofSeconds(20), () -> ledger(good) != null && KubeFixtures.batchAllocatable(client, good) != null
                && KubeFixtures.batchAllocatable(client, badThirdParty) != null);
        long[] frozenBatch = KubeFixtures.batchAllocatable(client, badThirdParty);

        annotate(client, badThirdParty, KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS,
                "{\"allocations\":[{\"name\":\"other\",\"priority\":\"koord-batch\",\"resources\":{\"kubernetes.io/batch-cpu\":\"1e9999999999\"}}]}");
        Await.until(Duration.ofSeconds(20), () -> ledger(badThirdParty) != null && ledger(badThirdParty).degradedReason() != null);
        // The pass goes on for the others: a change on the good node is still published.
        ColocationObjects.nodeMetric(client, good, TEST, 1000, 8 * GI, Instant.now());
        Await.until(Duration.ofSeconds(20), () -> ledger(good).origin().cpuMilli() == 8600
                && KubeFixtures.batchAllocatable(client, good)[0] == ledger(good).kubernetesGrant().cpuMilli());
        assertFalse(ledger(good).degraded());

        NodeLedger thirdParty = ledger(badThirdParty);
        assertTrue(thirdParty.degradedReason().startsWith("frozen: Node " + badThirdParty + ": annotation "
                + KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS), thirdParty.degradedReason());
        assertTrue(thirdParty.degradedReason().contains("exponent outside"), thirdParty.degradedReason());
        assertEquals(frozenBatch[0], KubeFixtures.batchAllocatable(client, badThirdParty)[0], "a frozen node keeps its last Batch");
        Await.until(Duration.ofSeconds(10), () -> client.v1().events().inNamespace("default").list().getItems().stream()
                .anyMatch(e -> badThirdParty.equals(e.getInvolvedObject().getName()) && "BatchInputInvalid".equals(e.getReason())
                        && "Warning".equals(e.getType())));

        NodeLedger metric = ledger(badMetric);
        assertTrue(metric.degraded());
        assertTrue(metric.degradedReason().contains("exponent outside"), metric.degradedReason());
        assertTrue(ledger(badReservation).explain().stream().anyMatch(l -> l.contains("reservedCPUs \"0-99999999999\"")),
                String.join("\n", ledger(badReservation).explain()));

        HealthCheck.Result inputs = health(broker).get("node-inputs");
        assertTrue(inputs.isHealthy(), "one node's bad input is a warning, not an outage");
        assertTrue(inputs.getMessage().startsWith("warning: 1 node(s) with invalid inputs (" + badThirdParty + ")"), inputs.getMessage());

        // Fixed: the node is published again and the warning clears.
        annotate(client, badThirdParty, KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS, "{\"allocations\":[]}");
        Await.until(Duration.ofSeconds(20), () -> ledger(badThirdParty).degradedReason() == null
                && broker.reconciler().nodeFaults().isEmpty());
    }

    @Test
    void aNegativeYarnReportIsRefusedWhereItEntersAndNeverWrittenBack(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        String nodeId = "fault-host-" + round + ":8041";
        startWithNodeManager(client, zk, nodeId);
        assertTrue(yarn.allocate(nodeId, 1, 1024));
        yarn.report();
        Await.until(Duration.ofSeconds(10), () -> ledger(good).yarnUsed().cpuMilli() == 1000 && client.nodes().withName(good).get()
                .getMetadata().getAnnotations().get(KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS).contains("\"1000\""));
        long usedBefore = ledger(good).yarnUsed().cpuMilli();
        yarn.stopReporting();
        String report = YarnContract.nodeReportPath(root, CLUSTER, nodeId);
        zkClient.setData().forPath(report, ("{\"nodeId\":\"" + nodeId + "\",\"allocatedVcores\":-100,\"allocatedMemoryMB\":1024,"
                + "\"runningContainers\":1,\"reportedAtMillis\":" + System.currentTimeMillis() + "}").getBytes(StandardCharsets.UTF_8));
        Await.until(Duration.ofSeconds(10), () -> !ledger(good).yarn().reachable());
        String annotation = client.nodes().withName(good).get().getMetadata().getAnnotations()
                .get(KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS);
        assertNotNull(annotation);
        assertFalse(annotation.contains("\"-"), "nothing negative is written back: " + annotation);
        assertTrue(annotation.contains("\"kubernetes.io/batch-cpu\":\"" + usedBefore + "\""),
                "YARN's last valid use stands: " + annotation);
        assertTrue(ledger(good).explain().stream().anyMatch(l -> l.contains("not reachable")), String.join("\n", ledger(good).explain()));
        yarn.resumeReporting();
        Await.until(Duration.ofSeconds(10), () -> ledger(good).yarn().reachable());
    }

    @Test
    void aCorruptEpochIsRepairedAboveEveryGrantAndTheReplicaLeads(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        String grant = YarnContract.grantPath(root, CLUSTER, "h:1");
        zkClient.create().creatingParentsIfNeeded().forPath(grant, YarnContractCodec.write(new YarnGrant("h:1", 41, 3, 1, 1024, 0)));
        zkClient.create().creatingParentsIfNeeded().forPath(YarnContract.epochPath(root), "abc".getBytes(StandardCharsets.UTF_8));
        broker = start(client, zk, true);
        assertEquals(42, broker.leadership().fence().orElseThrow().epoch(), "the new epoch fences every grant written before");
        assertEquals("42", new String(zkClient.getData().forPath(YarnContract.epochPath(root)), StandardCharsets.UTF_8));
        Await.until(Duration.ofSeconds(10), () -> health(broker).get("leadership").isHealthy());
        Await.until(Duration.ofSeconds(20), () -> KubeFixtures.batchAllocatable(client, good) != null);
    }

    @Test
    void aMalformedConfigMapAcrossARestartKeepsBatch(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        broker = start(client, zk, false);
        Await.until(Duration.ofSeconds(20), () -> KubeFixtures.batchAllocatable(client, good) != null);
        long[] published = KubeFixtures.batchAllocatable(client, good);
        Await.until(Duration.ofSeconds(10), () -> exists(root + "/config/colocation-config"));
        broker.stop();

        malformedConfig(client);
        broker = start(client, zk, false);
        Await.until(Duration.ofSeconds(20), () -> ledger(good) != null);
        Thread.sleep(1000); // several passes
        assertEquals(published[0], KubeFixtures.batchAllocatable(client, good)[0], "the kept configuration still enables Batch");
        assertTrue(broker.view().configError().contains("using the last good configuration the broker kept"), broker.view().configError());
        // The slo-config check says so, as a warning (healthy: the broker still serves), never "every key is in force".
        HealthCheck.Result slo = health(broker).get("slo-config");
        assertTrue(slo.isHealthy() && Boolean.TRUE.equals(slo.getDetails().get("warning")), slo.toString());
        assertTrue(slo.getMessage().startsWith("warning: ") && slo.getMessage().contains("using the last good configuration"),
                slo.getMessage());
    }

    @Test
    void aMalformedConfigMapWithNoGoodOneKnownFreezesInsteadOfRemovingBatch(KubernetesClient client, LocalZooKeeper zk)
            throws Exception {
        broker = start(client, zk, false);
        Await.until(Duration.ofSeconds(20), () -> KubeFixtures.batchAllocatable(client, good) != null);
        long[] published = KubeFixtures.batchAllocatable(client, good);
        // The broker keeps the accepted config on its own thread: wait for it, then take it away.
        Await.until(Duration.ofSeconds(10), () -> exists(root + "/config/colocation-config"));
        broker.stop();
        zkClient.delete().forPath(root + "/config/colocation-config");

        malformedConfig(client);
        broker = start(client, zk, false);
        Await.until(Duration.ofSeconds(20), () -> ledger(good) != null);
        Thread.sleep(1000);
        assertEquals(published[0], KubeFixtures.batchAllocatable(client, good)[0]);
        assertTrue(ledger(good).degradedReason().contains("no good configuration is known"), ledger(good).degradedReason());
    }

    @Test
    void healthAnswersWithinASecondWithZooKeeperDown(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        broker = start(client, zk, true);
        zk.stop();
        try {
            Await.until(Duration.ofSeconds(20), () -> !broker.zooKeeper().getZookeeperClient().isConnected());
            long started = System.nanoTime();
            Map<String, HealthCheck.Result> results = health(broker);
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(millis < 1000, "health took " + millis + " ms");
            assertFalse(results.get("zookeeper").isHealthy());
        } finally {
            zk.restart();
        }
        Await.until(Duration.ofSeconds(30), () -> broker.leadership().status().role() == LeaderEpoch.Role.LEADING
                && health(broker).get("leadership").isHealthy());
    }

    private boolean exists(String path) {
        try {
            return zkClient.checkExists().forPath(path) != null;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void aZooKeeperOutageFreezesBothGrantsAndTheyConvergeAfterIt(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        String nodeId = "fault-zk-" + round + ":8041";
        startWithNodeManager(client, zk, nodeId);
        long[] before = KubeFixtures.batchAllocatable(client, good);
        YarnGrant yarnBefore = yarn.applied(nodeId);
        zk.stop();
        try {
            // Online load falls (origin 5.6 -> 8.6 cores) while no replica can reach YARN's side: Kubernetes never
            // grows into the grant YARN holds, and YARN's grant cannot change at all.
            ColocationObjects.nodeMetric(client, good, TEST, 1000, 8 * GI, Instant.now());
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < end) {
                long kubernetes = KubeFixtures.batchAllocatable(client, good)[0];
                assertTrue(kubernetes <= Math.max(before[0], 8600 - yarnBefore.vcores() * 1000L),
                        "Kubernetes grew to " + kubernetes + " m into YARN's " + yarnBefore.vcores() + " vcores");
                assertEquals(yarnBefore.version(), yarn.applied(nodeId).version());
                Thread.sleep(250);
            }
        } finally {
            zk.restart();
        }
        Await.until(Duration.ofSeconds(40), () -> ledger(good).origin().cpuMilli() == 8600 && ledger(good).yarn().acknowledged()
                && KubeFixtures.batchAllocatable(client, good)[0] == ledger(good).kubernetesGrant().cpuMilli()
                && yarn.applied(nodeId).version() > yarnBefore.version());
        NodeLedger after = ledger(good);
        assertTrue(after.kubernetesGrant().plus(after.yarnGrant()).cpuMilli() <= after.origin().cpuMilli(), after.toString());
    }

    @Test
    void anApiServerOutageLetsYarnGrowOnlyIntoRoomKubernetesConfirmedGivingUp(KubernetesClient client, KubeApiServer api,
            LocalZooKeeper zk) throws Exception {
        String nodeId = "fault-api-" + round + ":8041";
        startWithNodeManager(client, zk, nodeId);
        long kubernetesBefore = KubeFixtures.batchAllocatable(client, good)[0];
        long origin = ledger(good).origin().cpuMilli();
        api.pause();
        try {
            // YARN asks for everything: its share may grow only once Kubernetes' smaller grant is written, which it cannot be.
            yarn.demand(64, 256 * 1024);
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < end) {
                long yarnGrant = yarn.applied(nodeId).vcores() * 1000L;
                assertTrue(yarnGrant + kubernetesBefore <= origin, "YARN grew to " + yarnGrant + " m while Kubernetes still held "
                        + kubernetesBefore + " m of " + origin + " m");
                Thread.sleep(200);
            }
        } finally {
            api.resume();
        }
        // Back: Kubernetes shrinks, YARN grows into what it gave up, both within origin.
        Await.until(Duration.ofSeconds(40), () -> {
            NodeLedger l = ledger(good);
            long[] status = KubeFixtures.batchAllocatable(client, good);
            return l.yarn().acknowledged() && status != null && status[0] == l.kubernetesGrant().cpuMilli()
                    && l.yarnGrant().cpuMilli() > origin - kubernetesBefore;
        });
        NodeLedger after = ledger(good);
        assertTrue(after.kubernetesGrant().plus(after.yarnGrant()).cpuMilli() <= after.origin().cpuMilli(), after.toString());
    }

    private static void malformedConfig(KubernetesClient client) {
        client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata()
                .withName(KoordinatorKeys.SLO_CONFIGMAP_NAME).withNamespace(NS).endMetadata()
                .addToData(KoordinatorKeys.COLOCATION_CONFIG_KEY, "{\"enable\":true,\"cpuReclaimThresholdPercent\":\"65\"}").build())
                .createOr(op -> op.update());
    }
}
