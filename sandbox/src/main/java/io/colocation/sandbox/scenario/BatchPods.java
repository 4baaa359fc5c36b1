package io.colocation.sandbox.scenario;

import io.colocation.api.ResourceNames;
import io.colocation.localclusters.kube.KubeletNode;
import io.colocation.sandbox.parts.ClusterSetup;
import io.colocation.sandbox.parts.SimulatedNodes;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scenario's batch pods: submitted as ordinary pods (1 cpu, 1 GiB) with the example profile's label and their
 * team's quota label, as many as the nodes' batch-cpu holds when Batch appears and a few more, for the webhook to turn
 * into batch pods; later the other team's; then what became of each
 * (its phase; "Evicted" once it is gone before it succeeded). With a real node, one more, sized to it and selecting it
 * by its hostname label, really burns a core there in the BE tier, for half as long as the others.
 */
final class BatchPods {
    static final int PER_NODE = 2;
    /** The batch pod that runs on the real node. */
    static final String REAL_NODE_POD = "batch-real-node";

    private final KubernetesClient client;
    private final List<String> nodes;
    private final String realNode;
    private final double realScale;
    /** By name, each pod's phase. */
    private final Map<String, String> phases = new LinkedHashMap<>();
    /** By name, the quota each pod names. */
    private final Map<String, String> quotas = new HashMap<>();
    private int converted;

    BatchPods(KubernetesClient client, List<String> nodes, String realNode, double realScale) {
        this.client = client;
        this.nodes = nodes;
        this.realNode = realNode;
        this.realScale = realScale;
    }

    /**
     * Submits the pods, each in {@code quota} and to run {@code runSeconds} once bound, {@code beyond} more than the
     * nodes' batch-cpu holds now (they wait for room); how many were submitted.
     */
    int submit(long runSeconds, String quota, int beyond) {
        Map<String, Long> free = new HashMap<>();
        for (String node : nodes) {
            if (node.equals(realNode)) {
                continue; // it gets its own pod below
            }
            var n = client.nodes().withName(node).get();
            Quantity q = n.getStatus().getAllocatable().get(ResourceNames.BATCH_CPU);
            free.put(node, q == null ? 0 : q.getNumericalAmount().longValue());
        }
        int fitting = 0;
        for (int i = 0; i < PER_NODE * nodes.size() && !free.isEmpty(); i++) {
            String node = free.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElseThrow();
            if (free.get(node) < 1000) {
                break;
            }
            free.merge(node, -1000L, Long::sum);
            fitting++;
        }
        for (int i = 0; i < fitting + beyond; i++) {
            submit("batch-" + i, 1.0, null, runSeconds, quota);
        }
        if (realNode != null) {
            // Half as long: it ends before the spike, whose BE evictions on the real node are the Spark executors' to take.
            submit(REAL_NODE_POD, realScale, realNode, Math.max(10, runSeconds / 2), quota);
        }
        return phases.size();
    }

    /** Submits {@code count} more pods of 1 cpu in {@code quota}, named after it. */
    void submitMore(int count, long runSeconds, String quota) {
        for (int i = 0; i < count; i++) {
            submit(quota + "-" + i, 1.0, null, runSeconds, quota);
        }
    }

    private void submit(String name, double scale, String node, long runSeconds, String quota) {
        Map<String, Quantity> plainResources = Map.of("cpu", PodSizes.milliCores(1000 * scale), "memory", PodSizes.mebibytes(1024 * scale));
        Pod pod = new PodBuilder().withNewMetadata().withName(name).addToLabels(ClusterSetup.ENABLE_COLOCATION, "true")
                .addToLabels(TeamQuotas.labels(quota))
                .addToAnnotations(SimulatedNodes.RUN_SECONDS, Long.toString(runSeconds)).endMetadata().withNewSpec()
                .withNodeSelector(node == null ? Map.of() : Map.of("kubernetes.io/hostname", node)).withRestartPolicy("Never")
                .withTerminationGracePeriodSeconds(1L).addNewContainer().withName("job").withImage(KubeletNode.IMAGE).withImagePullPolicy("Never")
                .withCommand("sh", "-c", "/burner 1 64 & sleep " + runSeconds + "; kill $!")
                .withNewResources().addToRequests(plainResources).addToLimits(plainResources).endResources().endContainer().endSpec()
                .build();
        Pod stored = client.pods().inNamespace(ClusterSetup.BATCH_NAMESPACE).resource(pod).create();
        if (Scenario.K8S_SCHEDULER.equals(stored.getSpec().getSchedulerName())
                && stored.getSpec().getContainers().get(0).getResources().getRequests().containsKey(ResourceNames.BATCH_CPU)) {
            converted++;
        }
        phases.put(name, "Pending");
        quotas.put(name, quota);
    }

    /** Each submitted pod's phase now; one that is gone before it succeeded was evicted. */
    void poll() {
        if (phases.isEmpty()) {
            return;
        }
        Map<String, String> now = new HashMap<>();
        client.pods().inNamespace(ClusterSetup.BATCH_NAMESPACE).list().getItems()
                .forEach(p -> now.put(p.getMetadata().getName(), phase(p)));
        phases.replaceAll((name, before) -> before.equals("Succeeded") || before.equals("Failed") ? before
                : now.getOrDefault(name, "Evicted"));
    }

    /**
     * A pod's phase, "Evicted" for one being deleted before it succeeded: a real kubelet stopping an evicted pod's
     * container may report it Failed on its way out.
     */
    private static String phase(Pod p) {
        String phase = p.getStatus() == null || p.getStatus().getPhase() == null ? "Pending" : p.getStatus().getPhase();
        return p.getMetadata().getDeletionTimestamp() != null && !phase.equals("Succeeded") ? "Evicted" : phase;
    }

    /** How many pods are in the phase ("Evicted" included). */
    int count(String phase) {
        return (int) phases.values().stream().filter(phase::equals).count();
    }

    /** The quota the submitted pod names; null for a pod not submitted here. */
    String quotaOf(String pod) {
        return quotas.get(pod);
    }

    /** How many of the quota's pods run or ran to success. */
    int placed(String quota) {
        return (int) phases.entrySet().stream().filter(e -> quota.equals(quotas.get(e.getKey()))
                && (e.getValue().equals("Running") || e.getValue().equals("Succeeded"))).count();
    }

    /** Pods the webhook returned converted (batch resources, the k8s-scheduler). */
    int converted() {
        return converted;
    }

    /** The real node's pod's phase, or "not submitted". */
    String realNodePod() {
        return phases.getOrDefault(REAL_NODE_POD, "not submitted");
    }
}
