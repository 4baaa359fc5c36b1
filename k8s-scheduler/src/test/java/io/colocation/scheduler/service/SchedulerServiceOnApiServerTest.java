package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.scheduler.cli.K8sSchedulerCommand;
import io.colocation.testsupport.Await;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scheduler service on a real kube-apiserver: batch pods are bound only where the nodes' batch-cpu (the
 * broker's grant) fits, never double-booked while bindings are in flight; a pod that fits nowhere gets a
 * FailedScheduling Event a user understands; pods of another scheduler are left alone; the replica binds only while
 * it holds the Lease.
 */
@ExtendWith(KubeApiServerExtension.class)
class SchedulerServiceOnApiServerTest {
    private static final String NS = "k8s-scheduler-test";
    private static SchedulerService service;

    @AfterAll
    static void stop(KubernetesClient client) {
        if (service != null) {
            service.close();
        }
        client.pods().inNamespace(NS).withGracePeriod(0).delete(); // a bare API server leaves them pending otherwise
        client.namespaces().withName(NS).delete();
        for (String n : List.of("sched-small", "sched-big", "sched-hot", "sched-stale")) {
            client.nodes().withName(n).delete();
        }
        ColocationObjects.cleanUp(client, "scheduler-test", NS);
    }

    /** A Ready node with batch allocatable; the not-ready taint the API server adds at creation is taken off. */
    private static void node(KubernetesClient client, String name, String batchCpu) {
        ColocationObjects.readyNode(client, name, Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"),
                "pods", new Quantity("110"), "kubernetes.io/batch-cpu", new Quantity(batchCpu),
                "kubernetes.io/batch-memory", new Quantity("16Gi")));
    }

    private static void batchPod(KubernetesClient client, String name, String batchCpu, String scheduler) {
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(NS)
                .addToLabels("koordinator.sh/priority-class", "koord-batch").endMetadata()
                .withNewSpec().withSchedulerName(scheduler).addNewContainer().withName("c").withImage("spark")
                .withNewResources().withRequests(Map.of("kubernetes.io/batch-cpu", new Quantity(batchCpu)))
                .withLimits(Map.of("kubernetes.io/batch-cpu", new Quantity(batchCpu))).endResources().endContainer()
                .endSpec().build()).create();
    }

    private static String nodeOf(KubernetesClient client, String pod) {
        Pod p = client.pods().inNamespace(NS).withName(pod).get();
        return p == null ? null : p.getSpec().getNodeName();
    }

    @Test
    void bindsWhereBatchFitsAndExplainsWhereNot(KubernetesClient client) throws Exception {
        ColocationObjects.installNodeMetricCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml"));
        ColocationObjects.namespace(client, NS);
        node(client, "sched-small", "1000");
        node(client, "sched-big", "8000");
        SchedulerSettings config = new SchedulerSettings();
        config.leaderElection.leaseNamespace = NS;
        config.backoffInitialSeconds = 0.2;
        config.backoffMaxSeconds = 1;
        service = new SchedulerService(config, h -> K8sSchedulerCommand.profile(config, h), client, "test-replica", Clock.systemUTC());
        service.start();
        Await.until(Duration.ofSeconds(30), service::leading);

        // Three 3-core pods at once: 8 cores on the big node hold two; the third must not be double-booked there.
        for (String p : List.of("exec-1", "exec-2", "exec-3")) {
            batchPod(client, p, "3000", "koord-scheduler");
        }
        batchPod(client, "other-scheduler", "100", "default-scheduler");
        List<String> execs = List.of("exec-1", "exec-2", "exec-3");
        Await.until(Duration.ofSeconds(30), () -> execs.stream().filter(p -> "sched-big".equals(nodeOf(client, p))).count() == 2);
        String waiting = execs.stream().filter(p -> nodeOf(client, p) == null).findFirst().orElseThrow();
        Await.until(Duration.ofSeconds(30), () -> failedScheduling(client, waiting).size() > 0);
        assertEquals(2, execs.stream().filter(p -> "sched-big".equals(nodeOf(client, p))).count(),
                "never double-booked onto the big node");
        String message = failedScheduling(client, waiting).get(0).getMessage();
        assertEquals("0/2 nodes are available: 2 Insufficient kubernetes.io/batch-cpu.", message);
        assertNull(nodeOf(client, "other-scheduler"), "another scheduler's pod is left alone");
        assertTrue(client.v1().events().inNamespace(NS).list().getItems().stream()
                .anyMatch(e -> "Scheduled".equals(e.getReason()) && e.getMessage().endsWith("to sched-big")));

        // Room again: the pod that waited is bound on its next try.
        String running = execs.stream().filter(p -> !p.equals(waiting)).findFirst().orElseThrow();
        client.pods().inNamespace(NS).withName(running).withGracePeriod(0).delete();
        Await.until(Duration.ofSeconds(30), () -> "sched-big".equals(nodeOf(client, waiting)));
        try (io.colocation.runtime.StatusServer status = SchedulerStatus.of(service)) {
            java.net.InetSocketAddress at = status.start("127.0.0.1", 0);
            for (String[] probe : new String[][] {{"/livez", "ok\n"}, {"/readyz", "ok\n"}, {"/healthz", "ok: leader\n"}}) {
                java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                        .newBuilder(java.net.URI.create("http://127.0.0.1:" + at.getPort() + probe[0])).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), probe[0] + ": " + r.body());
                assertEquals(probe[1], r.body(), probe[0]);
            }
            String metrics = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + at.getPort() + "/metrics")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.contains("koord_scheduler_attempt_duration_seconds_count{result=\"scheduled\",} 3.0"), metrics);
            assertTrue(metrics.contains("koord_scheduler_attempt_duration_seconds_count{result=\"unschedulable\","), metrics);
            assertTrue(metrics.contains("koord_scheduler_leader 1.0"), metrics);
        }
        assertEquals("test-replica", client.leases().inNamespace(NS).withName(config.leaderElection.leaseName).get()
                .getSpec().getHolderIdentity());

        // LoadAwareScheduling on NodeMetrics from the API server: a node at 90 % cpu is too hot (65 %), a node whose
        // NodeMetric is 10 minutes old is left out (expired after 180 s), until its koordlet reports again.
        node(client, "sched-hot", "16000");
        node(client, "sched-stale", "16000");
        ColocationObjects.nodeMetric(client, "sched-hot", "scheduler-test", 7200, 1L << 30, Instant.now());
        ColocationObjects.nodeMetric(client, "sched-stale", "scheduler-test", 0, 1L << 30, Instant.now().minusSeconds(600));
        // The NodeMetrics come on their own watch: a pod seen before them would find two idle nodes and be bound.
        Await.until(Duration.ofSeconds(30), () -> service.observed().nodes().stream()
                .filter(n -> n.name().startsWith("sched-hot") || n.name().startsWith("sched-stale"))
                .filter(n -> n.nodeMetric() != null).count() == 2);
        batchPod(client, "big-exec", "5000", "koord-scheduler"); // estimated at 85 %: 53 % of an idle node's 8 cores
        Await.until(Duration.ofSeconds(30), () -> failedScheduling(client, "big-exec").stream().anyMatch(e -> e.getMessage()
                .equals("0/4 nodes are available: 2 Insufficient kubernetes.io/batch-cpu, 1 node(s) cpu usage exceed threshold,"
                        + " 1 node(s) nodeMetric expired.")));
        assertNull(nodeOf(client, "big-exec"));
        ColocationObjects.nodeMetric(client, "sched-stale", "scheduler-test", 0, 1L << 30, Instant.now());
        Await.until(Duration.ofSeconds(30), () -> "sched-stale".equals(nodeOf(client, "big-exec")));

        // A node that goes is no candidate any more: the cache's node order is rebuilt, not patched in place.
        client.nodes().withName("sched-small").delete();
        batchPod(client, "too-big", "64000", "koord-scheduler");
        Await.until(Duration.ofSeconds(30), () -> failedScheduling(client, "too-big").stream().anyMatch(e -> e.getMessage()
                .startsWith("0/3 nodes are available: 3 Insufficient kubernetes.io/batch-cpu")));
    }

    private static List<Event> failedScheduling(KubernetesClient client, String pod) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "FailedScheduling".equals(e.getReason()) && pod.equals(e.getInvolvedObject().getName())).toList();
    }
}
