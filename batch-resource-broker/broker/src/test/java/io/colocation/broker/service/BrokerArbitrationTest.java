package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.model.Resources;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.yarn.SimulatedYarnPlugin;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker against a real API server and a real ZooKeeper, with the YARN plugin's side of the contract
 * simulated (the real plugin in a MiniYARNCluster is {@code BrokerWithYarnTest}): a NodeMetric change moves
 * both grants, stale metrics degrade Batch to 0, a silent YARN freezes its grant, a node without a
 * NodeManager gives Kubernetes all of origin.
 */
@ExtendWith({KubeApiServerExtension.class, ZooKeeperExtension.class})
class BrokerArbitrationTest {
    private static final String TEST = "arbitration";
    private static final String NS = "broker-arbitration";
    private static final String CLUSTER = "yarn-a";
    private static int round;
    private String withNm;
    private String withoutNm;
    private String nm;
    private static final long GI = 1024L * 1024 * 1024;

    private Broker broker;
    private SimulatedYarnPlugin yarn;
    private CuratorFramework pluginZk;

    @BeforeEach
    void start(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        // Names unique per test: deletions of the previous test's objects may still be in flight.
        round++;
        withNm = "arb-yarn-" + round;
        withoutNm = "arb-plain-" + round;
        nm = "arb-host-" + round + ":8041";
        ColocationObjects.installNodeMetricCrd(client, KubeFixtures.CRD);
        ColocationObjects.namespace(client, NS);
        ColocationObjects.enableColocation(client, NS, null);
        ColocationObjects.node(client, withNm, TEST, 16, 64);
        ColocationObjects.node(client, withoutNm, TEST, 16, 64);
        ColocationObjects.nodeManagerPod(client, NS, withNm, nm, CLUSTER);
        ColocationObjects.nodeMetric(client, withNm, TEST, 4000, 16 * GI, Instant.now());
        ColocationObjects.nodeMetric(client, withoutNm, TEST, 4000, 16 * GI, Instant.now());
        pluginZk = zk.newClient();
        yarn = new SimulatedYarnPlugin(pluginZk, "/arb" + round, CLUSTER, Set.of(nm), 500);
        BrokerConfiguration config = KubeFixtures.config(zk.connectString(), "/arb" + round, NS, "partitioned");
        config.yarn.clusters.add(KubeFixtures.pluginCluster(CLUSTER));
        broker = new Broker(config, client, Clock.systemUTC());
        broker.start();
        assertTrue(broker.leadership().awaitLeadership(Duration.ofSeconds(20)));
    }

    @AfterEach
    void stop(KubernetesClient client) {
        if (broker != null) {
            broker.stop();
        }
        yarn.close();
        pluginZk.close();
        ColocationObjects.cleanUp(client, TEST, NS);
    }

    private NodeLedger ledger(String node) {
        return broker.ledger().get(node).orElse(null);
    }

    /** Both sides hold the ledger's grants: node status = Kubernetes grant, YARN applied = YARN grant. */
    private boolean settled(KubernetesClient client, String node) {
        NodeLedger l = ledger(node);
        if (l == null || l.yarn() == null || !l.yarn().acknowledged()) {
            return false;
        }
        long[] status = KubeFixtures.batchAllocatable(client, node);
        YarnGrant g = yarn.applied(nm);
        return status != null && g != null && status[0] == l.kubernetesGrant().cpuMilli()
                // grants are sticky: within a tenth of origin of their targets they stay where they are
                && Math.abs(l.kubernetesGrant().cpuMilli() - l.kubernetesTarget().cpuMilli()) <= l.origin().cpuMilli() / 10
                && g.vcores() * 1000L == l.yarnGrant().cpuMilli();
    }

    private static void assertWithinOrigin(NodeLedger l) {
        Resources sum = l.kubernetesGrant().plus(l.yarnGrant());
        assertTrue(sum.cpuMilli() <= l.origin().cpuMilli() && sum.memoryBytes() <= l.origin().memoryBytes(),
                "grants " + l.kubernetesGrant() + " + " + l.yarnGrant() + " exceed origin " + l.origin());
    }

    @Test
    void aNodeMetricChangeMovesBothSidesWithinOrigin(KubernetesClient client) throws Exception {
        Await.until(Duration.ofSeconds(20), () -> settled(client, withNm));
        NodeLedger before = ledger(withNm);
        assertWithinOrigin(before);
        assertTrue(before.kubernetesGrant().cpuMilli() > 0 && before.yarnGrant().cpuMilli() > 0, before.toString());
        // 16 cores x 60 % - 4 cores used = 5.6 cores of origin.
        assertEquals(5600, before.origin().cpuMilli());

        ColocationObjects.nodeMetric(client, withNm, TEST, 1000, 8 * GI, Instant.now());
        Await.until(Duration.ofSeconds(20), () -> ledger(withNm).origin().cpuMilli() == 8600 && settled(client, withNm));
        NodeLedger after = ledger(withNm);
        assertWithinOrigin(after);
        assertTrue(after.kubernetesGrant().cpuMilli() > before.kubernetesGrant().cpuMilli(), after.toString());
        assertTrue(after.yarnGrant().cpuMilli() > before.yarnGrant().cpuMilli(), after.toString());
        assertTrue(yarn.applied(nm).vcores() * 1000L > before.yarnGrant().cpuMilli());

        // Online load rises: both shrink, still within origin.
        ColocationObjects.nodeMetric(client, withNm, TEST, 8000, 30 * GI, Instant.now());
        Await.until(Duration.ofSeconds(20), () -> ledger(withNm).origin().cpuMilli() == 1600 && settled(client, withNm));
        NodeLedger shrunk = ledger(withNm);
        assertWithinOrigin(shrunk);
        assertTrue(shrunk.yarnGrant().cpuMilli() < before.yarnGrant().cpuMilli(), shrunk.toString());
    }

    @Test
    void aNodeWithoutNodeManagerGivesKubernetesAllOfOrigin(KubernetesClient client) throws Exception {
        Await.until(Duration.ofSeconds(20), () -> {
            long[] s = KubeFixtures.batchAllocatable(client, withoutNm);
            return s != null && ledger(withoutNm) != null && s[0] == ledger(withoutNm).origin().cpuMilli();
        });
        NodeLedger l = ledger(withoutNm);
        assertNull(l.yarn());
        assertEquals(l.origin(), l.kubernetesGrant());
        String annotation = client.nodes().withName(withoutNm).get().getMetadata().getAnnotations()
                .get("node.koordinator.sh/originExtendedAllocatable");
        assertEquals("{\"resources\":{\"kubernetes.io/batch-cpu\":\"5600\",\"kubernetes.io/batch-memory\":\""
                + l.origin().memoryBytes() + "\"}}", annotation);
    }

    @Test
    void staleMetricsDegradeBatchToZeroOnBothSides(KubernetesClient client) throws Exception {
        Await.until(Duration.ofSeconds(20), () -> settled(client, withNm));
        // degradeTimeMinutes is 15 by default: a 20-minute-old NodeMetric is stale.
        ColocationObjects.nodeMetric(client, withNm, TEST, 4000, 16 * GI, Instant.now().minus(Duration.ofMinutes(20)));
        // The ledger is recorded once the pass's writes are done: wait for it too.
        Await.until(Duration.ofSeconds(20), () -> KubeFixtures.batchAllocatable(client, withNm) == null
                && yarn.applied(nm).vcores() == 0 && yarn.applied(nm).memoryMB() == 0 && ledger(withNm).degraded());
        NodeLedger l = ledger(withNm);
        assertTrue(l.degraded());
        assertEquals(Resources.ZERO, l.origin());
        assertTrue(l.explain().stream().anyMatch(line -> line.contains("degrade")), String.join("\n", l.explain()));
    }

    @Test
    void aSilentYarnKeepsItsGrantAndKubernetesDoesNotGrowIntoIt(KubernetesClient client) throws Exception {
        Await.until(Duration.ofSeconds(20), () -> settled(client, withNm));
        NodeLedger before = ledger(withNm);
        yarn.stopReporting();
        Await.until(Duration.ofSeconds(10), () -> ledger(withNm).yarn() != null && !ledger(withNm).yarn().reachable());
        long versionFrozen = yarn.applied(nm).version();

        // Origin falls: Kubernetes shrinks, YARN's grant stays (the broker cannot reach it to shrink it) ...
        ColocationObjects.nodeMetric(client, withNm, TEST, 6000, 20 * GI, Instant.now());
        Await.until(Duration.ofSeconds(20), () -> ledger(withNm).origin().cpuMilli() == 3600
                && ledger(withNm).kubernetesGrant().cpuMilli() < before.kubernetesGrant().cpuMilli());
        NodeLedger frozen = ledger(withNm);
        assertEquals(before.yarnGrant(), frozen.yarnGrant());
        assertEquals(versionFrozen, yarn.applied(nm).version(), "no grant may be published to an unreachable YARN");
        // ... and Kubernetes gets at most what YARN's frozen grant leaves.
        assertTrue(frozen.kubernetesGrant().cpuMilli() <= Math.max(frozen.origin().cpuMilli() - frozen.yarnGrant().cpuMilli(), 0),
                frozen.toString());

        yarn.resumeReporting();
        // reachable again, YARN's grant moves only if it must (sticky grants): both sides within origin either way
        Await.until(Duration.ofSeconds(20), () -> ledger(withNm).yarn().reachable() && settled(client, withNm));
        assertWithinOrigin(ledger(withNm));
    }
}
