package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.colocation.kube.client.TrimmingItemStore;
import io.colocation.testsupport.Await;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.ContainerImageBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The cache holds Nodes and Pods as the API server sends them less what the scheduler never reads (managed fields,
 * kubectl's last-applied annotation, a node's images): at 10,000 nodes the managed fields alone were most of its heap.
 */
@ExtendWith(KubeApiServerExtension.class)
class ClusterCacheOnApiServerTest {
    private static final String NS = "k8s-scheduler-cache";
    private static final String NODE = "cache-node";

    @AfterAll
    static void clean(KubernetesClient client) {
        client.pods().inNamespace(NS).withGracePeriod(0).delete();
        client.namespaces().withName(NS).delete();
        client.nodes().withName(NODE).delete();
    }

    @Test
    void keepsWhatTheSchedulerReadsOnly(KubernetesClient client) throws Exception {
        ColocationObjects.namespace(client, NS);
        ColocationObjects.readyNode(client, NODE, Map.of("cpu", new Quantity("4"), "pods", new Quantity("110")));
        client.nodes().withName(NODE).editStatus(n -> new NodeBuilder(n).editStatus()
                .withImages(new ContainerImageBuilder().withNames("registry.example/app:1").withSizeBytes(1L << 20).build())
                .endStatus().build());
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("p").withNamespace(NS)
                .addToAnnotations(TrimmingItemStore.LAST_APPLIED, "{\"big\": true}")
                .addToAnnotations("scheduling.koordinator.sh/reservation-affinity", "{}").endMetadata()
                .withNewSpec().withNodeName(NODE).addNewContainer().withName("c").withImage("x").endContainer().endSpec()
                .build()).create();
        assertFalse(client.pods().inNamespace(NS).withName("p").get().getMetadata().getManagedFields().isEmpty(),
                "the API server keeps managed fields");

        try (ClusterCache cache = new ClusterCache(client, Clock.systemUTC())) {
            cache.start(p -> { }, p -> { }, Duration.ofSeconds(30));
            Await.until(Duration.ofSeconds(30), () -> cache.snapshot(Clock.systemUTC().instant()).nodes().stream()
                    .anyMatch(n -> n.name().equals(NODE) && n.podCount() == 1));
            Pod cached = cache.pods().stream().filter(p -> p.getMetadata().getName().equals("p")).findFirst().orElseThrow();
            assertNull(cached.getMetadata().getManagedFields());
            assertEquals(Map.of("scheduling.koordinator.sh/reservation-affinity", "{}"), cached.getMetadata().getAnnotations());
            var node = cache.snapshot(Clock.systemUTC().instant()).nodes().stream().filter(n -> n.name().equals(NODE))
                    .findFirst().orElseThrow().node();
            assertNull(node.getMetadata().getManagedFields());
            assertNull(node.getStatus().getImages());
            assertEquals(new Quantity("4"), node.getStatus().getAllocatable().get("cpu"));
        }
    }
}
