package io.colocation.testsupport.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.localclusters.kube.KubeletNode;
import io.colocation.localclusters.spark.SparkOnKubernetes;
import io.colocation.localclusters.spark.SparkSubmit;
import io.colocation.testsupport.Await;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an eviction costs a Spark job on Kubernetes (not in the suite; {@code dev/bench-spark-on-kubernetes.sh}, root):
 * the word count (8 tasks of 3 s on 2 executor pods of Spark 4.2.0 on a real kubelet, driver in client mode), from
 * spark-submit to its exit, three times: undisturbed, with one executor pod evicted through the Eviction API (the
 * koordlet's route) once both run tasks, undisturbed again (the two bracket the one with the eviction, so a cold first
 * start does not pass for the eviction's cost). No scheduler runs: the benchmark binds each executor pod to the node
 * (where it runs is not what is measured; the sandbox shows the profile and the k8s-scheduler placing them).
 */
@ExtendWith(KubeApiServerExtension.class)
class SparkOnKubernetesBenchmark {
    private static final String NS = "default";
    private static final java.util.regex.Pattern SECOND_EXECUTOR_TASK = java.util.regex.Pattern.compile("Starting task .*executor 2");

    @Test
    void jobTimeWithAndWithoutAnEviction(KubernetesClient client, KubeApiServer api, @TempDir Path work) throws Exception {
        RealNodes.assumeAvailable("SparkOnKubernetesBenchmark");
        ScheduledExecutorService binder = Executors.newSingleThreadScheduledExecutor();
        try (KubeletNode node = KubeletNode.start(work.resolve("node"), api, "spark-node")) {
            binder.scheduleWithFixedDelay(() -> bindPending(client, node.name()), 0, 200, TimeUnit.MILLISECONDS);
            // a first pod makes the pods' bridge, whose address the driver binds
            client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("bridge").endMetadata().withNewSpec()
                    .withNodeName(node.name()).addNewContainer().withName("pause").withImage(KubeletNode.IMAGE).withImagePullPolicy("Never")
                    .endContainer().endSpec().build()).create();
            Await.until(Duration.ofSeconds(60), () -> {
                Pod p = client.pods().inNamespace(NS).withName("bridge").get();
                return p != null && "Running".equals(p.getStatus().getPhase());
            });
            Run first = run(client, api, node, work.resolve("without-1"), false);
            Run evicted = run(client, api, node, work.resolve("with"), true);
            Run last = run(client, api, node, work.resolve("without-2"), false);
            double without = (first.seconds() + last.seconds()) / 2;
            String report = String.format(Locale.ROOT, "Spark 4.2.0 on Kubernetes (a real kubelet), word count of 8 tasks x 3 s on 2 executor pods,"
                            + " spark-submit to exit:%n  without an eviction %.1f s and %.1f s; with one executor pod evicted %.1f s (%s executor(s)"
                            + " removed, %s task(s) lost and not counted as failures, %s counted); ratio %.2f%n", first.seconds(), last.seconds(),
                    evicted.seconds(), evicted.result().get("executorsRemoved"), evicted.result().get("failedTasksNotCounted"),
                    evicted.result().get("failedTasksCounted"), evicted.seconds() / without);
            System.out.print(report);
            Files.writeString(Path.of("target", "spark-on-kubernetes-benchmark.txt"), report);
        } finally {
            binder.shutdownNow();
        }
    }

    private record Run(double seconds, Map<String, String> result) {
    }

    private static Run run(KubernetesClient client, KubeApiServer api, KubeletNode node, Path work, boolean evict) throws Exception {
        long started = System.nanoTime();
        SparkSubmit.Submission spark = SparkOnKubernetes.submit(api.url(), api.kubeconfig(), work,
                SparkOnKubernetes.settings(node, NS, work, 2, "500m", Map.of()), 8, 3_000);
        if (evict) {
            // both executors run tasks (the driver logs "Starting task … executor N" for each): one is taken mid-task
            Await.until(Duration.ofSeconds(120), () -> spark.find(SECOND_EXECUTOR_TASK).isPresent() || !spark.process().isAlive());
            Thread.sleep(1_000);
            List<Pod> pods = running(client);
            assertTrue(!pods.isEmpty(), "an executor pod to evict; spark-submit log " + spark.log());
            assertTrue(client.pods().inNamespace(NS).withName(pods.get(0).getMetadata().getName()).evict(), "the eviction was admitted");
        }
        assertEquals(0, spark.await(5, TimeUnit.MINUTES), "spark-submit's exit status; log " + spark.log());
        double seconds = (System.nanoTime() - started) / 1e9;
        Map<String, String> result = SparkSubmit.result(work).orElseThrow(() -> new AssertionError("the driver wrote no result"));
        assertEquals("true", result.get("correct"), "the word count's answer: " + result);
        assertEquals("0", result.get("failedTasksCounted"), "no task failure counted against the job: " + result);
        // the next run starts with no executor pod of this one left
        Await.until(Duration.ofSeconds(60), () -> executors(client).isEmpty());
        return new Run(seconds, result);
    }

    private static List<Pod> executors(KubernetesClient client) {
        return client.pods().inNamespace(NS).withLabel(SparkOnKubernetes.EXECUTOR_LABEL, SparkOnKubernetes.EXECUTOR_LABEL_VALUE).list().getItems();
    }

    private static List<Pod> running(KubernetesClient client) {
        return executors(client).stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
                && "Running".equals(p.getStatus().getPhase())).toList();
    }

    /** Binds every unbound executor pod to the node, as a scheduler would. */
    private static void bindPending(KubernetesClient client, String node) {
        try {
            for (Pod p : executors(client)) {
                if (p.getSpec().getNodeName() == null && p.getMetadata().getDeletionTimestamp() == null) {
                    client.bindings().inNamespace(NS).resource(new BindingBuilder().withNewMetadata().withName(p.getMetadata().getName())
                            .endMetadata().withNewTarget().withKind("Node").withApiVersion("v1").withName(node).endTarget().build()).create();
                }
            }
        } catch (RuntimeException e) {
            // a pod bound or gone meanwhile; the next round sees it as it is
        }
    }
}
