package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.scheduler.cli.K8sSchedulerCommand;
import io.colocation.testsupport.Await;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two replicas on a real kube-apiserver: only the one holding the Lease binds; when it stops, the other takes over
 * within the lease duration and binds the pods that came meanwhile; no pod is bound twice (each gets one Scheduled
 * Event and keeps its node).
 */
@ExtendWith(KubeApiServerExtension.class)
class LeaderElectionOnApiServerTest {
    private static final String NS = "k8s-scheduler-ha";
    private static final List<SchedulerService> replicas = new ArrayList<>();
    private static final List<KubernetesClient> clients = new ArrayList<>();

    @AfterAll
    static void stop(KubernetesClient client) {
        replicas.forEach(SchedulerService::close);
        clients.forEach(KubernetesClient::close);
        client.pods().inNamespace(NS).withGracePeriod(0).delete(); // a bare API server leaves them pending otherwise
        client.namespaces().withName(NS).delete();
        client.nodes().withName("ha-node").delete();
    }

    private static SchedulerService replica(KubernetesClient admin, String identity) throws Exception {
        SchedulerSettings config = new SchedulerSettings();
        config.leaderElection.leaseNamespace = NS;
        config.leaderElection.leaseDurationSeconds = 4;
        config.leaderElection.renewDeadlineSeconds = 3;
        config.leaderElection.retryPeriodSeconds = 1;
        KubernetesClient own = new KubernetesClientBuilder().withConfig(admin.getConfiguration()).build();
        clients.add(own);
        SchedulerService s = new SchedulerService(config, h -> K8sSchedulerCommand.profile(config, h), own, identity, Clock.systemUTC());
        replicas.add(s);
        s.start();
        return s;
    }

    private static void pod(KubernetesClient client, String name) {
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(NS)
                .addToLabels("koordinator.sh/priority-class", "koord-batch").endMetadata().withNewSpec()
                .withSchedulerName("koord-scheduler").addNewContainer().withName("c").withImage("x").withNewResources()
                .withRequests(Map.of("kubernetes.io/batch-cpu", new Quantity("100"))).endResources().endContainer().endSpec()
                .build()).create();
    }

    private static boolean bound(KubernetesClient client, String name) {
        Pod p = client.pods().inNamespace(NS).withName(name).get();
        return p != null && p.getSpec().getNodeName() != null;
    }

    private static long scheduledEvents(KubernetesClient client, String pod) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "Scheduled".equals(e.getReason()) && pod.equals(e.getInvolvedObject().getName())).count();
    }

    @Test
    void onlyTheLeaderBindsAndTheOtherTakesOver(KubernetesClient client) throws Exception {
        ColocationObjects.namespace(client, NS);
        ColocationObjects.readyNode(client, "ha-node", Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"),
                "pods", new Quantity("110"), "kubernetes.io/batch-cpu", new Quantity("8000")));

        SchedulerService a = replica(client, "replica-a");
        Await.until(Duration.ofSeconds(20), a::leading);
        SchedulerService b = replica(client, "replica-b");
        pod(client, "before-failover");
        Await.until(Duration.ofSeconds(20), () -> bound(client, "before-failover"));
        Await.until(Duration.ofSeconds(5), () -> a.counts().get("bound") == 1);
        assertFalse(b.leading(), "one leader at a time");
        assertEquals(0, b.counts().get("bound"), "the follower binds nothing");

        long stoppedAt = System.nanoTime();
        a.close();
        Await.until(Duration.ofSeconds(20), b::leading);
        double handover = (System.nanoTime() - stoppedAt) / 1e9;
        assertTrue(handover <= 4 + 1, "handed over within the lease duration: " + handover + " s");
        pod(client, "after-failover");
        Await.until(Duration.ofSeconds(20), () -> bound(client, "after-failover"));
        // The replica counts a binding once the API server has answered, which may be after the pod shows bound.
        Await.until(Duration.ofSeconds(5), () -> b.counts().get("bound") == 1);
        for (String p : List.of("before-failover", "after-failover")) {
            // Events are written after the binding, off the scheduling path.
            Await.until(Duration.ofSeconds(10), () -> scheduledEvents(client, p) > 0);
            assertEquals(1, scheduledEvents(client, p), p + " bound once");
        }
    }
}
