package io.colocation.koordlet.qos.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.koordlet.qos.Victim;
import io.colocation.kube.client.EventRecorder;
import io.colocation.model.Resources;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.node.YarnReleaseResource;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On a real kube-apiserver: a BE pod the strategies chose is evicted through the Eviction API (the server picks
 * v1 or, before 1.22, v1beta1) and carries a Warning Event saying by which strategy and why.
 */
@ExtendWith(KubeApiServerExtension.class)
class ClusterEvictionsOnApiServerTest {
    private static final String NS = "koordlet-evict";
    private static final String OWNER = "koordlet-evict";

    @AfterAll
    static void cleanUp(KubernetesClient client) {
        client.namespaces().withName(NS).delete();
        client.nodes().withName("evict-node").delete();
    }

    @Test
    void aBePodIsEvictedWithAnEvent(KubernetesClient client) {
        ColocationObjects.namespace(client, NS);
        ColocationObjects.node(client, "evict-node", OWNER, 8, 32);
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("spark-exec").withNamespace(NS)
                .addToLabels(Map.of("koordinator.sh/qosClass", "BE", ColocationObjects.OWNER_LABEL, OWNER)).endMetadata()
                .withNewSpec().withNodeName("evict-node").addNewContainer().withName("c").withImage("spark").endContainer()
                .endSpec().build()).create();
        EventRecorder recorder = new EventRecorder(client, "koordlet");
        ClusterEvictions evictions = new ClusterEvictions(client, recorder, null, "evict-node");

        Optional<String> failure = evictions.evict(Victim.pod(NS, "spark-exec"), "memory", "BEMemoryEvict",
                "node memory 93% ≥ threshold 70%");
        assertEquals(Optional.empty(), failure);
        Pod after = client.pods().inNamespace(NS).withName("spark-exec").get();
        assertTrue(after == null || after.getMetadata().getDeletionTimestamp() != null, "evicted: deleted or terminating");
        recorder.close(); // writes what waits
        List<Event> events = client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> ClusterEvictions.EVENT_REASON.equals(e.getReason())).toList();
        assertEquals(1, events.size());
        assertEquals("spark-exec", events.get(0).getInvolvedObject().getName());
        assertTrue(events.get(0).getMessage().contains("BEMemoryEvict: node memory 93%"), events.get(0).getMessage());

        assertEquals(Optional.of("the pod is gone"), evictions.evict(Victim.pod(NS, "no-such-pod"), "memory", "BEMemoryEvict", "x"));
        assertTrue(evictions.evict(Victim.yarnContainer("container_1_0001_01_000002"), "memory", "BEMemoryEvict", "x").orElseThrow()
                .contains("no copilot"));
    }

    /**
     * The graceful route's release is the node's YarnRelease object the broker reads (no Node is written: the agent has
     * no right to), and replaces an older one.
     */
    @Test
    void aYarnReleaseIsTheNodesYarnReleaseObject(KubernetesClient client) throws Exception {
        ColocationObjects.installNodeMetricCrd(client, java.nio.file.Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml"));
        ColocationObjects.node(client, "release-node", OWNER, 8, 32);
        String nodeVersion = client.nodes().withName("release-node").get().getMetadata().getResourceVersion();
        ClusterEvictions evictions = new ClusterEvictions(client, null, null, "release-node");
        Instant expires = Instant.parse("2026-11-23T10:02:00Z");
        YarnRelease first = new YarnRelease(new Resources(3000, 1L << 30), expires, "BECPUEvict: x", List.of("container_1_0001_01_000002"));
        assertEquals(Optional.empty(), evictions.releaseYarn(first));
        YarnRelease second = new YarnRelease(new Resources(0, 0), expires.plusSeconds(30), "BECPUEvict: y", List.of("c3"));
        assertEquals(Optional.empty(), evictions.releaseYarn(second));
        YarnReleaseResource written = client.resources(YarnReleaseResource.class).withName("release-node").get();
        assertEquals(second, YarnRelease.parse(written.getSpec(), "YarnRelease release-node"));
        assertEquals(nodeVersion, client.nodes().withName("release-node").get().getMetadata().getResourceVersion(), "the Node is untouched");
        client.resources(YarnReleaseResource.class).withName("release-node").delete();
        client.nodes().withName("release-node").delete();
    }
}
