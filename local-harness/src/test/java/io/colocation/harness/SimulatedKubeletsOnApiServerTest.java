package io.colocation.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The simulated kubelets against a real API server: nodes Ready, a pod's life as a kubelet writes it, an eviction. */
@ExtendWith(KubeApiServerExtension.class)
class SimulatedKubeletsOnApiServerTest {
    private static final String NS = "simulated-kubelets";
    private static final String NODE = "simulated-1";

    @AfterAll
    static void clean(KubernetesClient client) {
        client.pods().inNamespace(NS).withGracePeriod(0).delete();
        client.namespaces().withName(NS).delete();
        client.nodes().withLabel(SimulatedKubelets.NODE_LABEL).delete();
    }

    @Test
    void runsBoundPodsAsAKubeletWould(KubernetesClient client) throws Exception {
        ColocationObjects.namespace(client, NS);
        List<String> started = new CopyOnWriteArrayList<>();
        List<String> stopped = new CopyOnWriteArrayList<>();
        SimulatedKubelets.PodRuntime runtime = new SimulatedKubelets.PodRuntime() {
            @Override
            public void start(Pod pod) {
                started.add(pod.getMetadata().getName());
            }

            @Override
            public void stop(Pod pod) {
                stopped.add(pod.getMetadata().getName());
            }
        };
        try (SimulatedKubelets kubelets = new SimulatedKubelets(client, Set.of(NODE), "test", Clock.systemUTC(), runtime)) {
            kubelets.register(8, 16L << 30, 110);
            Node node = client.nodes().withName(NODE).get();
            assertEquals("8", node.getStatus().getAllocatable().get("cpu").getAmount());
            assertTrue(node.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
            assertTrue(node.getSpec().getTaints() == null || node.getSpec().getTaints().isEmpty(), "no not-ready taint");

            SharedIndexInformer<Pod> watch = client.pods().inNamespace(NS).inform(new ResourceEventHandler<>() {
                @Override
                public void onAdd(Pod pod) {
                    kubelets.changed(pod, false);
                }

                @Override
                public void onUpdate(Pod old, Pod pod) {
                    kubelets.changed(pod, false);
                }

                @Override
                public void onDelete(Pod pod, boolean unknown) {
                    kubelets.changed(pod, true);
                }
            });
            try {
                Pod done = create(client, "done", NODE);
                create(client, "elsewhere", "another-node");
                create(client, "evicted", NODE);
                Await.until(Duration.ofSeconds(30), () -> phase(client, "done").equals("Running") && phase(client, "evicted").equals("Running"));
                Pod running = client.pods().inNamespace(NS).withName("done").get();
                assertEquals("BestEffort", running.getStatus().getQosClass());
                assertTrue(running.getStatus().getContainerStatuses().get(0).getReady());
                assertEquals("Pending", phase(client, "elsewhere"), "a pod of another node is not this kubelet's");

                assertEquals("done", kubelets.ended(done.getMetadata().getUid(), SimulatedKubelets.Ending.COMPLETED).getMetadata().getName());
                Await.until(Duration.ofSeconds(30), () -> phase(client, "done").equals("Succeeded"));
                assertNull(kubelets.ended(done.getMetadata().getUid(), SimulatedKubelets.Ending.COMPLETED), "it ended once");

                // an eviction deletes with a grace period: the kubelet stops the containers and confirms the deletion
                client.pods().inNamespace(NS).withName("evicted").withGracePeriod(30).delete();
                Await.until(Duration.ofSeconds(30), () -> client.pods().inNamespace(NS).withName("evicted").get() == null);
                assertEquals(List.of("done", "evicted"), started.stream().sorted().toList());
                assertEquals(List.of("evicted"), stopped, "the ended pod was not stopped again");
                assertEquals(0, kubelets.writeFailures());
                assertTrue(kubelets.statusWrites() >= 4, "Running twice, Succeeded, the deletion: " + kubelets.statusWrites());
            } finally {
                watch.close();
            }
        }
    }

    private static Pod create(KubernetesClient client, String name, String node) {
        return client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("c").withImage("x").endContainer().endSpec().build()).create();
    }

    private static String phase(KubernetesClient client, String name) {
        Pod pod = client.pods().inNamespace(NS).withName(name).get();
        return pod == null || pod.getStatus() == null || pod.getStatus().getPhase() == null ? "" : pod.getStatus().getPhase();
    }
}
