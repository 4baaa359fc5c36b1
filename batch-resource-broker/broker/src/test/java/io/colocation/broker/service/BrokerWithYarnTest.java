package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.broker.ledger.NodeLedger;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.colocation.testsupport.yarn.MiniYarn;
import io.colocation.testsupport.zookeeper.TestZooKeeper;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import io.colocation.broker.yarn.PluginYarnSideTest;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.Resource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole path with the real parts: NodeMetric in a real API server → broker → ZooKeeper → the real
 * scheduler plugin inside a MiniYARNCluster's ResourceManager → the NodeManager's schedulable capacity,
 * and the node status on the Kubernetes side.
 */
@ExtendWith({KubeApiServerExtension.class, ZooKeeperExtension.class})
class BrokerWithYarnTest {
    private static final String TEST = "with-yarn";
    private static final String NS = "broker-with-yarn";
    private static final String NODE = "yarn-k8s-node";
    private static final String ROOT = "/with-yarn";
    private static final String CLUSTER = "mini";
    private static final long GI = 1L << 30;

    @Test
    void aNodeMetricChangeMovesTheNodeStatusAndTheNodeManagersCapacity(KubernetesClient client, TestZooKeeper zk) throws Exception {
        ColocationObjects.installNodeMetricCrd(client, KubeFixtures.CRD);
        ColocationObjects.namespace(client, NS);
        ColocationObjects.enableColocation(client, NS, null);
        MiniYarn yarn = PluginYarnSideTest.withPlugin(MiniYarn.builder("broker-with-yarn").nodeManagers(1).nodeSize(8192, 8), zk,
                ROOT, CLUSTER).start();
        Broker broker = null;
        try {
            String nodeId = yarn.runningNodes().get(0).getNodeId().toString();
            ColocationObjects.node(client, NODE, TEST, 16, 64);
            ColocationObjects.nodeManagerPod(client, NS, NODE, nodeId, CLUSTER);
            ColocationObjects.nodeMetric(client, NODE, TEST, 4000, 16 * GI, Instant.now());
            BrokerConfiguration config = KubeFixtures.config(zk.connectString(), ROOT, NS, "partitioned");
            config.yarn.clusters.add(KubeFixtures.pluginCluster(CLUSTER));
            broker = new Broker(config, client, Clock.systemUTC());
            broker.start();
            Broker b = broker;

            Await.until(Duration.ofSeconds(30), () -> settled(b, client, yarn));
            Resource before = capacity(yarn);
            NodeLedger first = broker.ledger().get(NODE).orElseThrow();
            assertTrue(before.getVirtualCores() > 0 && first.yarnGrant().cpuMilli() == before.getVirtualCores() * 1000L, first + " vs " + before);

            // Online usage falls by 3 cores: origin grows by 3 cores, and both sides grow.
            ColocationObjects.nodeMetric(client, NODE, TEST, 1000, 8 * GI, Instant.now());
            Await.until(Duration.ofSeconds(30), () -> b.ledger().get(NODE).map(l -> l.origin().cpuMilli() == 8600).orElse(false)
                    && settled(b, client, yarn));
            Resource after = capacity(yarn);
            NodeLedger second = broker.ledger().get(NODE).orElseThrow();
            assertTrue(after.getVirtualCores() > before.getVirtualCores(), before + " -> " + after);
            assertTrue(after.getMemorySize() > before.getMemorySize(), before + " -> " + after);
            assertTrue(second.kubernetesGrant().cpuMilli() > first.kubernetesGrant().cpuMilli(), first + " -> " + second);
            assertTrue(second.kubernetesGrant().cpuMilli() + after.getVirtualCores() * 1000L <= second.origin().cpuMilli());
            assertTrue(second.kubernetesGrant().memoryBytes() + after.getMemorySize() * 1024 * 1024 <= second.origin().memoryBytes());
        } finally {
            if (broker != null) {
                broker.stop();
            }
            yarn.close();
            ColocationObjects.cleanUp(client, TEST, NS);
        }
    }

    private static Resource capacity(MiniYarn yarn) throws Exception {
        return yarn.runningNodes().stream().findFirst().map(NodeReport::getCapability).orElseThrow();
    }

    private static boolean settled(Broker broker, KubernetesClient client, MiniYarn yarn) {
        NodeLedger l = broker.ledger().get(NODE).orElse(null);
        long[] status = KubeFixtures.batchAllocatable(client, NODE);
        try {
            return l != null && l.yarn() != null && l.yarn().acknowledged() && status != null
                    && status[0] == l.kubernetesTarget().cpuMilli() && l.kubernetesGrant().equals(l.kubernetesTarget())
                    && capacity(yarn).getVirtualCores() * 1000L == l.yarnGrant().cpuMilli();
        } catch (Exception e) {
            return false;
        }
    }
}
