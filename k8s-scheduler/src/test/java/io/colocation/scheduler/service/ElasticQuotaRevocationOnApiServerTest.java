package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.quota.QuotaStatus;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Koordinator's overuse revocation and status writing on a real kube-apiserver: a borrowing team keeps its pods until
 * the lender's pods come and the borrower's used stays above its runtime longer than {@code delayEvictTime}; then its
 * least important preemptible pods are evicted through the Eviction API (a PodDisruptionBudget holds one back, a
 * non-preemptible pod is never a victim), and every quota's annotations and {@code status.used} say where it stands.
 */
@ExtendWith(KubeApiServerExtension.class)
class ElasticQuotaRevocationOnApiServerTest {
    private static final String BORROWER = "revoke-c";
    private static final String LENDER = "revoke-d";
    private static final String BATCH_CPU = "kubernetes.io/batch-cpu";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static SchedulerService service;

    @TempDir
    static Path dir;

    @AfterAll
    static void stop(KubernetesClient client) {
        QuotaTestCluster.tearDown(client, service, "revoke-node", List.of(BORROWER, LENDER), "revoke-low", "revoke-high");
    }

    private static GenericKubernetesResource quota(KubernetesClient client, String team) {
        return client.genericKubernetesResources("scheduling.sigs.k8s.io/v1alpha1", "ElasticQuota").inNamespace(team).withName(team).get();
    }

    private static void pod(KubernetesClient client, String team, String name, String priorityClass, Map<String, String> labels, int cores) {
        client.pods().inNamespace(team).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(team)
                .addToLabels(labels).endMetadata()
                .withNewSpec().withSchedulerName("koord-scheduler").withPriorityClassName(priorityClass).addNewContainer().withName("c")
                .withImage("x").withNewResources().withRequests(Map.of(BATCH_CPU, new Quantity(String.valueOf(cores * 1000))))
                .endResources().endContainer().endSpec().build()).create();
    }

    /** Evicted: gone, or terminating (no kubelet here finishes a graceful stop). */
    private static boolean evicted(KubernetesClient client, String team, String name) {
        Pod p = client.pods().inNamespace(team).withName(name).get();
        return p == null || p.getMetadata().getDeletionTimestamp() != null;
    }

    /** What a kubelet would report of a started, ready pod (the Eviction API weighs budgets only for running, ready pods). */
    private static void running(KubernetesClient client, String team, String name, String startTime) throws Exception {
        client.pods().inNamespace(team).withName(name).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
                JSON.writeValueAsString(Map.of("status", Map.of("phase", "Running", "startTime", startTime,
                        "conditions", List.of(Map.of("type", "Ready", "status", "True"))))));
    }

    private static List<String> events(KubernetesClient client, String team, String pod, String reason) {
        return client.v1().events().inNamespace(team).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()) && pod.equals(e.getInvolvedObject().getName())).map(e -> e.getMessage()).toList();
    }

    private static String annotation(KubernetesClient client, String team, String key) {
        GenericKubernetesResource q = quota(client, team);
        return q.getMetadata().getAnnotations() == null ? null : q.getMetadata().getAnnotations().get(key);
    }

    private static Object used(KubernetesClient client, String team) {
        Object status = quota(client, team).getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> m ? m.get("used") : null;
    }

    @Test
    void aBorrowerOverItsRuntimeLosesItsLeastImportantPreemptiblePodsAfterTheDelay(KubernetesClient client) throws Exception {
        QuotaTestCluster.teams(client, 4000, 8000, BORROWER, LENDER);
        QuotaTestCluster.priorityClass(client, "revoke-low", 10);
        QuotaTestCluster.priorityClass(client, "revoke-high", 1000);
        QuotaTestCluster.node(client, "revoke-node", 8000);
        service = QuotaTestCluster.scheduler(client, dir, "revoke-test", """
                plugins:
                  preFilter: {enabled: [{name: ElasticQuota}]}
                  reserve: {enabled: [{name: ElasticQuota}]}
                pluginConfig:
                - name: ElasticQuota
                  args: {monitorAllQuotas: true, delayEvictTime: 2s, revokePodInterval: 200ms}
                """);

        // The borrower alone: a non-preemptible pod within its min, a second one that would take it past min is held back.
        Map<String, String> nonPreemptible = Map.of("quota.scheduling.koordinator.sh/preemptible", "false");
        pod(client, BORROWER, "c-held", "revoke-low", nonPreemptible, 1);
        Await.until(Duration.ofSeconds(30), () -> QuotaTestCluster.bound(client, BORROWER, "c-held"));
        pod(client, BORROWER, "c-held-big", "revoke-low", nonPreemptible, 4);
        Await.until(Duration.ofSeconds(30), () -> events(client, BORROWER, "c-held-big", "FailedScheduling").stream()
                .anyMatch(m -> m.startsWith("Insufficient non-preemptible quotas, quotaName: " + BORROWER)));
        client.pods().inNamespace(BORROWER).withName("c-held-big").withGracePeriod(0).delete();

        // It borrows: 6 of the 8 cores. Its pods' names sort against their priority: the victims are chosen by priority.
        Map<String, String> tier = Map.of("tier", "low");
        for (String p : List.of("c-a", "c-b", "c-c")) {
            pod(client, BORROWER, p, "revoke-high", Map.of(), 1);
        }
        for (String p : List.of("c-x", "c-y")) {
            pod(client, BORROWER, p, "revoke-low", tier, 1);
        }
        List<String> borrowed = List.of("c-a", "c-b", "c-c", "c-x", "c-y");
        Await.until(Duration.ofSeconds(30), () -> borrowed.stream().allMatch(p -> QuotaTestCluster.bound(client, BORROWER, p)));
        for (int i = 0; i < borrowed.size(); i++) {
            running(client, BORROWER, borrowed.get(i), "2026-12-03T08:00:0" + i + "Z");
        }
        Await.until(Duration.ofSeconds(10), () -> "{\"kubernetes.io/batch-cpu\":\"6k\"}".equals(annotation(client, BORROWER, QuotaStatus.RUNTIME)));
        // status.used is its own write (the status subresource), just after the annotations'.
        Await.until(Duration.ofSeconds(10), () -> Map.of(BATCH_CPU, "6k").equals(used(client, BORROWER)));
        assertEquals("{\"kubernetes.io/batch-cpu\":\"1k\"}", annotation(client, BORROWER, QuotaStatus.NON_PREEMPTIBLE_USED));

        // A budget that lets one of the two low-priority pods go (as the disruption controller would say).
        PodDisruptionBudget pdb = client.policy().v1beta1().podDisruptionBudget().inNamespace(BORROWER).resource(new PodDisruptionBudgetBuilder()
                .withNewMetadata().withName("low").withNamespace(BORROWER).endMetadata().withNewSpec().withMinAvailable(new IntOrString(1))
                .withNewSelector().withMatchLabels(tier).endSelector().endSpec().build()).create();
        client.policy().v1beta1().podDisruptionBudget().inNamespace(BORROWER).withName("low").subresource("status").patch(
                PatchContext.of(PatchType.JSON_MERGE), JSON.writeValueAsString(Map.of("status", Map.of("observedGeneration",
                        pdb.getMetadata().getGeneration(), "disruptionsAllowed", 1, "currentHealthy", 2, "desiredHealthy", 1,
                        "expectedPods", 2))));

        // The lender's pods come: its runtime is its 4 cores, the borrower's drops to 4 below the 6 it uses.
        for (String p : List.of("d-0", "d-1", "d-2", "d-3")) {
            pod(client, LENDER, p, "revoke-low", Map.of(), 1);
        }
        Await.until(Duration.ofSeconds(30), () -> QuotaTestCluster.bound(client, LENDER, "d-0") && QuotaTestCluster.bound(client, LENDER, "d-1"));
        Await.until(Duration.ofSeconds(10), () -> "{\"kubernetes.io/batch-cpu\":\"4k\"}".equals(annotation(client, BORROWER, QuotaStatus.RUNTIME)));
        assertTrue(List.of("c-x", "c-y").stream().noneMatch(p -> evicted(client, BORROWER, p)), "nothing is revoked before delayEvictTime");

        // After 2 s over its runtime: the low-priority pods are the victims; the budget lets one go, the other stays.
        Await.until(Duration.ofSeconds(30), () -> evicted(client, BORROWER, "c-x") || evicted(client, BORROWER, "c-y"));
        String victim = evicted(client, BORROWER, "c-x") ? "c-x" : "c-y";
        String kept = victim.equals("c-x") ? "c-y" : "c-x";
        // The victim's Event is recorded once its eviction is answered: it may follow the eviction by a moment.
        Await.until(Duration.ofSeconds(10), () -> events(client, BORROWER, victim, io.colocation.quota.QuotaRevocation.EVENT_REASON).stream()
                .anyMatch(m -> m.contains("ElasticQuota " + BORROWER + " has used " + BATCH_CPU + ":6k over its runtime " + BATCH_CPU + ":4k")));
        Thread.sleep(4_500); // two more delays while the victim terminates: the budget holds the other, nothing more important goes
        for (String p : List.of("c-held", "c-a", "c-b", "c-c", kept)) {
            assertTrue(QuotaTestCluster.bound(client, BORROWER, p) && !evicted(client, BORROWER, p), p + " stays");
        }
        assertEquals(Map.of(BATCH_CPU, "6k"), used(client, BORROWER), "a terminating pod is still used");

        // The victim's stop completes (what its kubelet would do): its core goes to the lender.
        client.pods().inNamespace(BORROWER).withName(victim).withGracePeriod(0).delete();
        Await.until(Duration.ofSeconds(30), () -> QuotaTestCluster.bound(client, LENDER, "d-2"));
        Await.until(Duration.ofSeconds(10), () -> Map.of(BATCH_CPU, "5k").equals(used(client, BORROWER)));
        assertEquals("{\"kubernetes.io/batch-cpu\":\"4k\"}", annotation(client, LENDER, QuotaStatus.RUNTIME));
        assertEquals("{\"kubernetes.io/batch-cpu\":\"4k\"}", annotation(client, LENDER, QuotaStatus.REQUEST));
        Await.until(Duration.ofSeconds(10), () -> Map.of(BATCH_CPU, "3k").equals(used(client, LENDER)));
    }
}
