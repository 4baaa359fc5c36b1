package io.colocation.sandbox.scenario;

import io.colocation.api.ResourceNames;
import io.colocation.koordlet.qos.agent.ClusterEvictions;
import io.colocation.localclusters.kube.KubeletNode;
import io.colocation.localclusters.spark.SparkOnKubernetes;
import io.colocation.localclusters.spark.SparkSubmit;
import io.colocation.model.pod.PodPhases;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The scenario's Spark application on Kubernetes (the driver in client mode on this host, executor pods on the real
 * node), watched through the API server every second: the executor pods Spark created, whether the profile made each a
 * batch pod (batch resources, the k8s-scheduler) and where it ran, how many ran at once, which the koordlet evicted (its
 * Event) and how many were lost before the answer was written. Spark's own account comes from the job's result line.
 */
final class SparkKubernetesWatch {
    private final SparkRun run;
    private final KubernetesClient client;
    private final String namespace;
    private final String node;
    private final Set<String> created = new TreeSet<>();
    private final Set<String> converted = new HashSet<>();
    private final Set<String> elsewhere = new TreeSet<>();
    private final Set<String> evicted = new TreeSet<>();

    private SparkKubernetesWatch(SparkSubmit.Submission submission, KubernetesClient client, String namespace, String node, Path work) {
        this.run = new SparkRun(submission, work);
        this.client = client;
        this.namespace = namespace;
        this.node = node;
    }

    /** Starts the driver: {@code executors} executor pods asking {@code executorCpu} each, one task of {@code taskMillis} per partition. */
    static SparkKubernetesWatch submit(KubernetesClient client, KubeletNode node, Path kubeconfig, String namespace, Path work, int executors,
            String executorCpu, int partitions, long taskMillis) {
        SparkSubmit.Submission s = SparkOnKubernetes.submit(client.getMasterUrl().toString(), kubeconfig, work,
                SparkOnKubernetes.settings(node, namespace, work, executors, executorCpu, Map.of()), partitions, taskMillis);
        return new SparkKubernetesWatch(s, client, namespace, node.name(), work);
    }

    void poll() {
        if (run.complete()) {
            return;
        }
        List<Pod> pods = client.pods().inNamespace(namespace)
                .withLabel(SparkOnKubernetes.EXECUTOR_LABEL, SparkOnKubernetes.EXECUTOR_LABEL_VALUE).list().getItems();
        Set<String> now = new HashSet<>();
        for (Pod p : pods) {
            String name = p.getMetadata().getName();
            if (created.add(name)) {
                var requests = p.getSpec().getContainers().get(0).getResources().getRequests();
                if (requests != null && requests.containsKey(ResourceNames.BATCH_CPU) && Scenario.K8S_SCHEDULER.equals(p.getSpec().getSchedulerName())) {
                    converted.add(name);
                }
            }
            if (p.getSpec().getNodeName() != null && !node.equals(p.getSpec().getNodeName())) {
                elsewhere.add(name);
            }
            if (PodPhases.running(p) && p.getMetadata().getDeletionTimestamp() == null) {
                now.add(name);
            }
        }
        run.executorsNow(now);
        // only the koordlet's eviction Events, selected by the API server (this runs every second)
        client.v1().events().inNamespace(namespace).withField("reason", ClusterEvictions.EVENT_REASON).list().getItems().stream()
                .filter(e -> created.contains(e.getInvolvedObject().getName()))
                .forEach(e -> evicted.add(e.getInvolvedObject().getName()));
        run.checkEnded();
    }

    /** Ends the driver if it still runs (its executor pods go with the node at the end). */
    void stop() {
        run.stop();
    }

    /** The executor pods the driver has created so far (as of the last poll). */
    int executorPodsCreated() {
        return created.size();
    }

    int executorsEvicted() {
        return evicted.size();
    }

    boolean complete() {
        return run.complete();
    }

    /**
     * The application finished, every count right, no task failure counted against it, and every executor pod was a
     * batch pod on the real node.
     */
    boolean succeeded() {
        return run.answeredRight() && !created.isEmpty() && converted.size() == created.size() && elsewhere.isEmpty();
    }

    /** While it runs: its executor pods; then: the outcome, what the node and Spark lost, and the run time. */
    String state() {
        if (!run.complete()) {
            return run.running() + " executor pods running";
        }
        return String.format("%s; %d executor pods created, %d made batch pods by the profile, %s; %d running at most;"
                        + " %d evicted by the koordlet, %d lost while it ran; %s",
                run.outcome(succeeded()), created.size(), converted.size(), elsewhere.isEmpty() ? "all on " + node : elsewhere.size() + " placed off " + node,
                run.peakExecutors(), evicted.size(), run.executorsLost(), run.sparkAccount());
    }
}
