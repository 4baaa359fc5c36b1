package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.broker.ledger.NodeLedger;
import io.colocation.model.node.YarnRelease;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.yarn.JobResult;
import io.colocation.localclusters.yarn.SleepJobs;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import io.colocation.broker.yarn.PluginYarnSideTest;
import io.colocation.kube.client.YarnReleaseWriter;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.junit.jupiter.api.io.TempDir;
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
    void aNodeMetricChangeMovesTheNodeStatusAndTheNodeManagersCapacity(KubernetesClient client, LocalZooKeeper zk) throws Exception {
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

    /**
     * The graceful route of a koordlet CPU eviction, from the Node annotation on: the koordlet's release (the format
     * its {@code ClusterEvictions} writes) holds YARN's grant below what a running MapReduce job holds, the plugin
     * preempts one map container gracefully, the RM records PREEMPTED, and the job succeeds with no failed task.
     */
    @Test
    void aKoordletReleaseShrinksYarnAndTheResourceManagerPreemptsGracefully(KubernetesClient client, LocalZooKeeper zk,
            @TempDir Path work) throws Exception {
        ColocationObjects.installNodeMetricCrd(client, KubeFixtures.CRD);
        ColocationObjects.namespace(client, NS);
        ColocationObjects.enableColocation(client, NS, null);
        MiniYarn yarn = PluginYarnSideTest.withPlugin(MiniYarn.builder("broker-release").nodeManagers(1).nodeSize(8192, 8), zk,
                ROOT + "-release", CLUSTER).set("colocation.yarn.preemption.wait-before-kill-ms", "1500").start();
        Broker broker = null;
        try {
            NodeId nodeId = yarn.runningNodes().get(0).getNodeId();
            ColocationObjects.node(client, NODE, TEST, 16, 64);
            ColocationObjects.nodeManagerPod(client, NS, NODE, nodeId.toString(), CLUSTER);
            ColocationObjects.nodeMetric(client, NODE, TEST, 4000, 16 * GI, Instant.now());
            BrokerConfiguration config = KubeFixtures.config(zk.connectString(), ROOT + "-release", NS, "partitioned");
            config.yarn.clusters.add(KubeFixtures.pluginCluster(CLUSTER));
            broker = new Broker(config, client, Clock.systemUTC());
            broker.start();
            Broker b = broker;
            Await.until(Duration.ofSeconds(30), () -> settled(b, client, yarn));

            Job job = SleepJobs.submit(yarn.config(), 3, 12_000, work);
            ApplicationId app = SleepJobs.applicationOf(job);
            SchedulerNode node = yarn.resourceManager().getResourceScheduler().getSchedulerNode(nodeId);
            Await.until(Duration.ofSeconds(60), () -> node.getNumContainers() >= 3);
            RMContainer victim = node.getCopiedListOfRunningContainers().stream().filter(c -> !c.isAMContainer()).findFirst()
                    .orElseThrow();
            Resource held = Resources.subtract(node.getAllocatedResource(), victim.getAllocatedResource());
            io.colocation.model.Resources limit = new io.colocation.model.Resources(held.getVirtualCores() * 1000L,
                    held.getMemorySize() << 20);
            // as the koordlet writes it
            YarnReleaseWriter.write(client, NODE, new YarnRelease(limit, Instant.now().plusSeconds(120), "BECPUEvict: test",
                    List.of(victim.getContainerId().toString())));

            Await.until(Duration.ofSeconds(30), () -> capacityIs(yarn, held));
            assertTrue(b.ledger().get(NODE).orElseThrow().explain().stream().anyMatch(l -> l.startsWith("YARN: the koordlet asks YARN down to")),
                    b.ledger().get(NODE).orElseThrow().explain().toString());
            JobResult result = JobResult.await(yarn, job, Duration.ofMinutes(3));
            assertTrue(result.succeeded(), "the job survives the release: " + result);
            assertEquals(0, result.failedMaps(), "PREEMPTED is not a task failure");
            RMAppAttemptMetrics metrics = yarn.resourceManager().getRMContext().getRMApps().get(app).getCurrentAppAttempt()
                    .getRMAppAttemptMetrics();
            assertTrue(metrics.getNumNonAMContainersPreempted() >= 1, "the RM recorded exit status PREEMPTED");
            assertFalse(metrics.getIsPreempted(), "the ApplicationMaster was not preempted");
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

    private static boolean capacityIs(MiniYarn yarn, Resource expected) {
        try {
            return capacity(yarn).equals(expected);
        } catch (Exception e) {
            return false;
        }
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
