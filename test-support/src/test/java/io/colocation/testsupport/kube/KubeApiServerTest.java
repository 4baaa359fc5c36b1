package io.colocation.testsupport.kube;

import io.colocation.localclusters.kube.KubeApiServer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.ResourceNames;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The test API server is a real Kubernetes: status subresource, binding, eviction, watch. */
@ExtendWith(KubeApiServerExtension.class)
class KubeApiServerTest {

    @Test
    void nodeStatusCarriesBatchResourcesAndPodIsBoundEvictedAndWatched(KubernetesClient client, KubeApiServer server)
            throws Exception {
        assertTrue(Files.readString(server.kubeconfig()).contains(server.url()), "kubeconfig names the server");

        String nodeName = "infra-node-1";
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(nodeName).endMetadata().build()).create();
        Node node = client.nodes().withName(nodeName).get();
        node.setStatus(new io.fabric8.kubernetes.api.model.NodeStatusBuilder()
                .withCapacity(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"),
                        ResourceNames.BATCH_CPU, new Quantity("25000"), ResourceNames.BATCH_MEMORY, new Quantity("33G")))
                .withAllocatable(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"),
                        ResourceNames.BATCH_CPU, new Quantity("25000"), ResourceNames.BATCH_MEMORY, new Quantity("33G")))
                .build());
        client.nodes().resource(node).updateStatus();
        Node stored = client.nodes().withName(nodeName).get();
        // The server canonicalizes quantities (25000 becomes 25k): compare amounts.
        assertEquals(0, new java.math.BigDecimal(25000).compareTo(
                stored.getStatus().getAllocatable().get(ResourceNames.BATCH_CPU).getNumericalAmount()));
        assertEquals(0, new java.math.BigDecimal(33_000_000_000L).compareTo(
                stored.getStatus().getCapacity().get(ResourceNames.BATCH_MEMORY).getNumericalAmount()));

        String ns = "infra-" + System.nanoTime();
        Namespace namespace = new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build();
        client.namespaces().resource(namespace).create();

        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        Watch watch = client.pods().inNamespace(ns).watch(new Watcher<Pod>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                events.add(action + ":" + pod.getMetadata().getName() + ":" + pod.getSpec().getNodeName());
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
        try {
            Pod pod = client.pods().inNamespace(ns).resource(new PodBuilder()
                    .withNewMetadata().withName("batch-pod").endMetadata()
                    .withNewSpec()
                    .withSchedulerName("colocation-scheduler")
                    .addNewContainer().withName("main").withImage("busybox")
                    .withNewResources()
                    .addToRequests(ResourceNames.BATCH_CPU, new Quantity("1000"))
                    .addToLimits(ResourceNames.BATCH_CPU, new Quantity("1000"))
                    .endResources()
                    .endContainer()
                    .endSpec().build()).create();
            assertEquals("colocation-scheduler", pod.getSpec().getSchedulerName());
            assertNull(pod.getSpec().getNodeName());
            assertEquals("ADDED:batch-pod:null", events.poll(10, TimeUnit.SECONDS));

            Binding binding = new BindingBuilder()
                    .withNewMetadata().withName("batch-pod").withNamespace(ns).endMetadata()
                    .withNewTarget().withKind("Node").withApiVersion("v1").withName(nodeName).endTarget()
                    .build();
            client.bindings().inNamespace(ns).resource(binding).create();
            assertEquals(nodeName, client.pods().inNamespace(ns).withName("batch-pod").get().getSpec().getNodeName());
            assertEquals("MODIFIED:batch-pod:" + nodeName, events.poll(10, TimeUnit.SECONDS));

            assertTrue(client.pods().inNamespace(ns).withName("batch-pod").evict(), "eviction accepted");
            // No kubelet: the evicted pod is marked for deletion and the watch says so.
            String afterEviction = events.poll(10, TimeUnit.SECONDS);
            assertNotNull(afterEviction, "a watch event follows the eviction");
            assertTrue(afterEviction.startsWith("MODIFIED:batch-pod") || afterEviction.startsWith("DELETED:batch-pod"),
                    afterEviction);
            Pod evicted = client.pods().inNamespace(ns).withName("batch-pod").get();
            assertTrue(evicted == null || evicted.getMetadata().getDeletionTimestamp() != null,
                    "the evicted pod is being deleted");

            client.pods().inNamespace(ns).withName("batch-pod").withGracePeriod(0).delete();
            List<String> rest = drain(events, Duration.ofSeconds(10), "DELETED:batch-pod");
            assertTrue(rest.stream().anyMatch(e -> e.startsWith("DELETED:batch-pod")), rest.toString());
        } finally {
            watch.close();
            client.nodes().withName(nodeName).delete();
        }
    }

    private static List<String> drain(BlockingQueue<String> events, Duration timeout, String until)
            throws InterruptedException {
        List<String> seen = new java.util.ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String e = events.poll(100, TimeUnit.MILLISECONDS);
            if (e != null) {
                seen.add(e);
                if (e.startsWith(until)) {
                    break;
                }
            }
        }
        return seen;
    }
}
