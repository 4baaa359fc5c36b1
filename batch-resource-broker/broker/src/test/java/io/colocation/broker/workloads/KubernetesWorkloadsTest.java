package io.colocation.broker.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubernetesWorkloadsTest {

    @Test
    void aSparkApplicationsExecutorsAreOneWorkloadWhateverTheirNodes() {
        List<KubernetesWorkloads.Workload> w = KubernetesWorkloads.of(List.of(
                spark("exec-1", "node-a", "Running", "1000"), spark("exec-2", "node-b", "Running", "1000"),
                spark("exec-3", null, "Pending", "1000")));
        assertEquals(List.of(new KubernetesWorkloads.Workload("batch", "SparkApplication", "wordcount (spark-7)", 2, 1, 3000,
                3L << 30, 2)), w);
    }

    @Test
    void otherPodsBelongToTheirControllerOrStandAlone() {
        Pod job = pod("job-x-1", Map.of(), "node-a", "Running", "kubernetes.io/batch-cpu", "500");
        job.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withKind("Job").withName("job-x")
                .withApiVersion("batch/v1").withUid("u").withController(true).build()));
        Pod alone = pod("lonely", Map.of(), "node-a", "Running", "kubernetes.io/batch-cpu", "2000");
        List<KubernetesWorkloads.Workload> w = KubernetesWorkloads.of(List.of(job, alone));
        assertEquals(List.of("Pod/lonely", "Job/job-x"), w.stream().map(x -> x.kind() + "/" + x.name()).toList(),
                "largest Batch CPU first");
    }

    @Test
    void onlinePodsFinishedPodsAndUnreadableRequestsAreLeftOut() {
        List<KubernetesWorkloads.Workload> w = KubernetesWorkloads.of(List.of(
                pod("web", Map.of(), "node-a", "Running", "cpu", "2"),
                spark("done", "node-a", "Succeeded", "1000"),
                spark("broken", "node-a", "Running", "lots")));
        assertEquals(List.of(), w);
    }

    private static Pod spark(String name, String node, String phase, String batchCpu) {
        Pod p = pod(name, Map.of("spark-app-selector", "spark-7", "spark-app-name", "wordcount", "spark-role", "executor"), node,
                phase, "kubernetes.io/batch-cpu", batchCpu);
        p.getSpec().getContainers().get(0).getResources().getRequests().put("kubernetes.io/batch-memory", new Quantity("1Gi"));
        return p;
    }

    private static Pod pod(String name, Map<String, String> labels, String node, String phase, String resource, String quantity) {
        return new PodBuilder().withNewMetadata().withNamespace("batch").withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("main")
                .withNewResources().addToRequests(resource, new Quantity(quantity)).endResources().endContainer().endSpec()
                .withNewStatus().withPhase(phase).endStatus().build();
    }
}
