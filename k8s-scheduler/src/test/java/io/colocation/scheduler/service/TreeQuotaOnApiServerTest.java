package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
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
 * A tree over Batch on a real kube-apiserver (docs/quota.md): the scheduler does not compute a tree with a tree-id and
 * its root; a pod of the tree's Kubernetes leaf waits until the broker has written the leaf's runtime, is then admitted
 * within it with Koordinator's message past it, and the scheduler's status writer leaves the broker's runtime alone.
 */
@ExtendWith(KubeApiServerExtension.class)
class TreeQuotaOnApiServerTest {
    private static final String EQ = "scheduling.sigs.k8s.io/v1alpha1";
    private static final String BATCH_CPU = QuotaTestCluster.BATCH_CPU;
    private static final String P = "quota.scheduling.koordinator.sh/";
    private static SchedulerService service;

    @TempDir
    static Path dir;

    @AfterAll
    static void stop(KubernetesClient client) {
        QuotaTestCluster.tearDown(client, service, "tree-node", List.of("tree-team", "tree-roots"));
    }

    private static void quota(KubernetesClient client, String ns, String name, Map<String, String> labels, Map<String, String> annotations,
            long min, long max) {
        client.genericKubernetesResources(EQ, "ElasticQuota").inNamespace(ns).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion(EQ).withKind("ElasticQuota").withNewMetadata().withName(name).withNamespace(ns).withLabels(labels)
                .withAnnotations(annotations).endMetadata()
                .addToAdditionalProperties("spec", Map.of("min", Map.of(BATCH_CPU, String.valueOf(min)), "max", Map.of(BATCH_CPU, String.valueOf(max))))
                .build()).create();
    }

    private static void pod(KubernetesClient client, String name) {
        client.pods().inNamespace("tree-team").resource(new PodBuilder().withNewMetadata().withName(name).withNamespace("tree-team")
                .addToLabels("koordinator.sh/priority-class", "koord-batch").endMetadata()
                .withNewSpec().withSchedulerName("koord-scheduler").addNewContainer().withName("c").withImage("x")
                .withNewResources().withRequests(Map.of(BATCH_CPU, new Quantity("1000"))).endResources()
                .endContainer().endSpec().build()).create();
    }

    private static List<String> failures(KubernetesClient client, String pod) {
        return client.v1().events().inNamespace("tree-team").list().getItems().stream()
                .filter(e -> "FailedScheduling".equals(e.getReason()) && pod.equals(e.getInvolvedObject().getName()))
                .map(e -> e.getMessage()).toList();
    }

    private static String runtime(KubernetesClient client) {
        GenericKubernetesResource q = client.genericKubernetesResources(EQ, "ElasticQuota").inNamespace("tree-team").withName("tree-team-k8s").get();
        return q.getMetadata().getAnnotations() == null ? null : q.getMetadata().getAnnotations().get(P + "runtime");
    }

    @Test
    void aTreeLeafsPodsWaitForTheBrokersRuntimeAndAreAdmittedWithinIt(KubernetesClient client) throws Exception {
        QuotaTestCluster.teams(client, 1000, 1000); // the CRD
        ColocationObjects.namespace(client, "tree-roots");
        ColocationObjects.namespace(client, "tree-team");
        quota(client, "tree-roots", "batch-root", Map.of(P + "is-root", "true", P + "tree-id", "batch", P + "is-parent", "true"),
                Map.of(P + "total-resource", "{\"" + BATCH_CPU + "\":\"6000\"}"), 6000, 6000);
        quota(client, "tree-team", "tree-team-k8s", Map.of(P + "tree-id", "batch", P + "parent", "batch-root"),
                Map.of(P + "namespaces", "[\"tree-team\"]"), 2000, 6000);
        QuotaTestCluster.node(client, "tree-node", 8000);
        service = QuotaTestCluster.scheduler(client, dir, "tree-test", """
                plugins:
                  preFilter: {enabled: [{name: ElasticQuota}]}
                  reserve: {enabled: [{name: ElasticQuota}]}
                """);

        pod(client, "a-0");
        Await.until(Duration.ofSeconds(30), () -> failures(client, "a-0").stream().anyMatch(m -> m.equals("quota tree-team-k8s is in tree batch, "
                + "whose runtimes the broker's leader writes (annotation " + P + "runtime): none yet")));
        assertTrue(!QuotaTestCluster.bound(client, "tree-team", "a-0"));

        // As the broker's leader writes it.
        client.genericKubernetesResources(EQ, "ElasticQuota").inNamespace("tree-team").withName("tree-team-k8s").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"annotations\":{\"" + P + "runtime\":\"{\\\"" + BATCH_CPU + "\\\":\\\"2k\\\"}\"}}}");
        pod(client, "a-1");
        pod(client, "a-2");
        // Two of the three fit the 2 cores (which two is the queue's order); the third is held back by Koordinator's message.
        List<String> pods = List.of("a-0", "a-1", "a-2");
        Await.until(Duration.ofSeconds(30), () -> pods.stream().filter(p -> QuotaTestCluster.bound(client, "tree-team", p)).count() == 2
                && pods.stream().anyMatch(p -> !QuotaTestCluster.bound(client, "tree-team", p) && failures(client, p).stream().anyMatch(m -> m.startsWith(
                        "Insufficient quotas, quotaName: tree-team-k8s, runtime: " + BATCH_CPU + ":2k, used: " + BATCH_CPU + ":2k, pod's request: "
                        + BATCH_CPU + ":1k"))));
        Thread.sleep(1_000);
        assertEquals(2, pods.stream().filter(p -> QuotaTestCluster.bound(client, "tree-team", p)).count(), "no more than the runtime");
        Thread.sleep(2_000); // the status writer's passes (every second)
        assertEquals("{\"" + BATCH_CPU + "\":\"2k\"}", runtime(client), "the broker's runtime stands");
    }
}
