package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnGrant;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two broker replicas; the leader loses its ZooKeeper session (what a crash or a partition looks like
 * to the others). The standby takes over within the session timeout, no grant is inflated during or
 * after the handover (sampled all along: Kubernetes grant in the node status + YARN's applied grant <=
 * origin; YARN never applies an older epoch), and publication resumes under the new epoch.
 */
@ExtendWith({KubeApiServerExtension.class, ZooKeeperExtension.class})
class FailoverTest {
    private static final String TEST = "failover";
    private static final String NS = "broker-failover";
    private static final String CLUSTER = "yarn-f";
    private static final String ROOT = "/failover";
    private static final long GI = 1L << 30;

    @Test
    void theStandbyTakesOverWithoutInflatingGrants(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        ColocationObjects.installNodeMetricCrd(client, KubeFixtures.CRD);
        ColocationObjects.namespace(client, NS);
        ColocationObjects.enableColocation(client, NS, null);
        List<String> nodes = List.of("fo-node-1", "fo-node-2", "fo-node-3");
        List<String> nms = new ArrayList<>();
        for (String node : nodes) {
            ColocationObjects.node(client, node, TEST, 16, 64);
            ColocationObjects.nodeManagerPod(client, NS, node, node + "-host:8041", CLUSTER);
            ColocationObjects.nodeMetric(client, node, TEST, 4000, 16 * GI, Instant.now());
            nms.add(node + "-host:8041");
        }
        CuratorFramework pluginZk = zk.newClient();
        SimulatedYarnPlugin yarn = new SimulatedYarnPlugin(pluginZk, ROOT, CLUSTER, Set.copyOf(nms), 300);
        Broker a = broker(client, zk, "replica-a");
        Broker b = null;
        AtomicBoolean sampling = new AtomicBoolean(true);
        List<String> violations = new CopyOnWriteArrayList<>();
        long[] originBound = {5600, 5600, 5600};
        Thread sampler = null;
        try {
            a.start();
            assertTrue(a.leadership().awaitLeadership(Duration.ofSeconds(20)));
            b = broker(client, zk, "replica-b");
            b.start();
            Broker first = a;
            Await.until(Duration.ofSeconds(30), () -> nodes.stream().allMatch(n -> settled(first, n)));
            long epochA = a.leadership().fence().orElseThrow().epoch();
            assertTrue(b.leadership().fence().isEmpty(), "one leader only");

            sampler = new Thread(() -> {
                long[] lastEpoch = new long[nodes.size()];
                while (sampling.get()) {
                    for (int i = 0; i < nodes.size(); i++) {
                        long[] k = KubeFixtures.batchAllocatable(client, nodes.get(i));
                        YarnGrant y = yarn.applied(nms.get(i));
                        long bound = originBound[i];
                        if (k != null && y != null && k[0] + y.vcores() * 1000L > bound) {
                            violations.add(nodes.get(i) + ": kubernetes " + k[0] + "m + yarn " + y.vcores() + " vcores > origin " + bound + "m");
                        }
                        if (y != null && y.epoch() < lastEpoch[i]) {
                            violations.add(nms.get(i) + ": YARN applied epoch " + y.epoch() + " after " + lastEpoch[i]);
                        }
                        lastEpoch[i] = y == null ? lastEpoch[i] : y.epoch();
                    }
                }
            }, "failover-sampler");
            sampler.start();

            long killed = System.nanoTime();
            a.zooKeeper().getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
            Broker second = b;
            Await.until(Duration.ofMillis(6_000), () -> second.leadership().fence().isPresent());
            long takeoverMillis = (System.nanoTime() - killed) / 1_000_000;
            long epochB = b.leadership().fence().orElseThrow().epoch();
            assertTrue(epochB > epochA, "new epoch " + epochB + " after " + epochA);
            System.out.printf("failover: standby leads %d ms after the leader's session ended (session timeout 6000 ms)%n",
                    takeoverMillis);

            // The new leader re-stamps the persisted grants: YARN applies them under its epoch, same figures.
            Await.until(Duration.ofSeconds(20), () -> nms.stream().allMatch(nm -> yarn.applied(nm).epoch() == epochB));
            // Publication resumes: a NodeMetric change reaches both sides through the new leader.
            originBound[0] = 8600; // origin only grows here, so the higher bound holds before and after
            ColocationObjects.nodeMetric(client, nodes.get(0), TEST, 1000, 8 * GI, Instant.now());
            Await.until(Duration.ofSeconds(20), () -> second.ledger().get(nodes.get(0)).map(l -> l.origin().cpuMilli() == 8600)
                    .orElse(false) && settled(second, nodes.get(0)));
            assertTrue(yarn.applied(nms.get(0)).vcores() * 1000L > 2000, "YARN's grant grew under the new leader");
            assertEquals(epochB, yarn.applied(nms.get(0)).epoch());
            sampling.set(false);
            sampler.join();
            assertTrue(violations.isEmpty(), violations.toString());
        } finally {
            sampling.set(false);
            if (sampler != null) {
                sampler.join();
            }
            a.stop();
            if (b != null) {
                b.stop();
            }
            yarn.close();
            pluginZk.close();
            ColocationObjects.cleanUp(client, TEST, NS);
        }
    }

    private static Broker broker(KubernetesClient client, LocalZooKeeper zk, String replica) {
        BrokerConfiguration c = KubeFixtures.config(zk.connectString(), ROOT, NS, "partitioned");
        c.yarn.clusters.add(KubeFixtures.pluginCluster(CLUSTER));
        c.replicaId = replica;
        return new Broker(c, client, Clock.systemUTC());
    }

    private static boolean settled(Broker broker, String node) {
        NodeLedger l = broker.ledger().get(node).orElse(null);
        return l != null && l.yarn() != null && l.yarn().acknowledged() && l.kubernetesGrant().equals(l.kubernetesTarget())
                && l.yarnGrant().equals(l.yarnTarget().min(l.yarnGrant()));
    }
}
