package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * ElasticQuota's PostFilter on a real kube-apiserver: a high-priority pod whose quota is full preempts a lower-priority
 * pod of its own quota, only as many as it needs, never one of another quota although that one's priority is lower
 * too; the victim gets a Preempted Event, the preemptor its nominatedNodeName, and it binds once the victim is gone.
 */
@ExtendWith(KubeApiServerExtension.class)
class ElasticQuotaPreemptionOnApiServerTest {
    private static final String A = "preempt-a";
    private static final String B = "preempt-b";
    private static final String BATCH_CPU = "kubernetes.io/batch-cpu";
    private static SchedulerService service;

    @TempDir
    static Path dir;

    @AfterAll
    static void stop(KubernetesClient client) {
        QuotaTestCluster.tearDown(client, service, "preempt-node", List.of(A, B), "preempt-low", "preempt-high");
    }

    private static void pod(KubernetesClient client, String team, String name, String priorityClass) {
        client.pods().inNamespace(team).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(team).endMetadata()
                .withNewSpec().withSchedulerName("koord-scheduler").withPriorityClassName(priorityClass).addNewContainer().withName("c")
                .withImage("x").withNewResources().withRequests(Map.of(BATCH_CPU, new Quantity("1000"))).endResources().endContainer()
                .endSpec().build()).create();
    }

    private static Pod get(KubernetesClient client, String team, String name) {
        return client.pods().inNamespace(team).withName(name).get();
    }

    private static boolean going(KubernetesClient client, String team, String name) {
        Pod p = get(client, team, name);
        return p == null || p.getMetadata().getDeletionTimestamp() != null;
    }

    @Test
    void aHighPriorityPodPreemptsWithinItsOwnQuotaOnly(KubernetesClient client) throws Exception {
        QuotaTestCluster.teams(client, 2000, 4000, A, B);
        QuotaTestCluster.priorityClass(client, "preempt-low", 10);
        QuotaTestCluster.priorityClass(client, "preempt-high", 1000);
        QuotaTestCluster.node(client, "preempt-node", 4000);
        service = QuotaTestCluster.scheduler(client, dir, "preempt-test", """
                plugins:
                  preFilter: {enabled: [{name: ElasticQuota}]}
                  postFilter: {enabled: [{name: ElasticQuota}]}
                  reserve: {enabled: [{name: ElasticQuota}]}
                """);

        // Each team holds its min, 2 of the node's 4 cores, with low-priority pods: the node and both quotas are full.
        for (String team : List.of(A, B)) {
            pod(client, team, team + "-low-0", "preempt-low");
            pod(client, team, team + "-low-1", "preempt-low");
        }
        Await.until(Duration.ofSeconds(30), () -> List.of(A, B).stream().allMatch(t -> QuotaTestCluster.bound(client, t, t + "-low-0") && QuotaTestCluster.bound(client, t, t + "-low-1")));

        // A's high-priority pod: held back at PreFilter (its quota's runtime is 2 cores, all used), then preempts one of
        // A's low pods (one frees the core it needs), none of B's.
        pod(client, A, "a-high", "preempt-high");
        Await.until(Duration.ofSeconds(30), () -> going(client, A, A + "-low-0") || going(client, A, A + "-low-1"));
        String victim = going(client, A, A + "-low-0") ? A + "-low-0" : A + "-low-1";
        String spared = victim.endsWith("0") ? A + "-low-1" : A + "-low-0";
        assertTrue(!going(client, A, spared), "only as many victims as needed");
        assertTrue(List.of(B + "-low-0", B + "-low-1").stream().noneMatch(p -> going(client, B, p)), "never a pod of another quota");
        Await.until(Duration.ofSeconds(10), () -> "preempt-node".equals(get(client, A, "a-high").getStatus().getNominatedNodeName()));
        assertTrue(client.v1().events().inNamespace(A).list().getItems().stream().anyMatch(e -> Preemptions.PREEMPTED.equals(e.getReason())
                && victim.equals(e.getInvolvedObject().getName()) && e.getMessage().startsWith("Preempted by " + A + "/a-high on node preempt-node")),
                "the victim is told who preempted it");
        assertTrue(!QuotaTestCluster.bound(client, A, "a-high"), "not before its victim is gone");

        // The victim's stop completes (what its kubelet would do): the preemptor binds in its place.
        client.pods().inNamespace(A).withName(victim).withGracePeriod(0).delete();
        Await.until(Duration.ofSeconds(30), () -> QuotaTestCluster.bound(client, A, "a-high"));
        assertEquals(List.of(true, true, true), List.of(QuotaTestCluster.bound(client, A, spared), QuotaTestCluster.bound(client, B, B + "-low-0"), QuotaTestCluster.bound(client, B, B + "-low-1")));
    }
}
