package io.colocation.broker.workloads;

import io.colocation.api.InvalidInputException;
import io.colocation.model.Resources;
import io.colocation.model.pod.PodPhases;
import io.colocation.model.pod.PodRequests;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Kubernetes half of "who uses Batch": batch pods (those requesting {@code kubernetes.io/batch-cpu} or
 * {@code batch-memory}) grouped into the workloads a user knows. A Spark application is one workload, driver
 * and executors ({@code spark-app-selector}, the label Spark puts on every pod of an application); any other pod
 * belongs to its controller (ownerReference with {@code controller: true}: a Job, a ReplicaSet, ...), or stands
 * alone. A pure function of the pods, like every decision here.
 */
public final class KubernetesWorkloads {
    static final String SPARK_APP_SELECTOR = "spark-app-selector";
    static final String SPARK_APP_NAME = "spark-app-name";

    /** One workload's batch pods: running and pending, their Batch requests, the nodes they run on. */
    public record Workload(String namespace, String kind, String name, int running, int pending, long batchCpuMilli,
            long batchMemoryBytes, int nodes) {
    }

    private KubernetesWorkloads() {
    }

    /** The workloads of {@code pods} holding or asking for Batch, largest Batch CPU first; unreadable requests are skipped. */
    public static List<Workload> of(Collection<Pod> pods) {
        Map<List<String>, Sum> sums = new LinkedHashMap<>();
        for (Pod pod : pods) {
            if (PodPhases.ended(pod)) {
                continue; // no longer holds Batch
            }
            boolean running = PodPhases.running(pod);
            Resources batch;
            try {
                batch = PodRequests.batch(pod, "");
            } catch (InvalidInputException e) {
                continue; // the broker's pass names it; the view only leaves it out
            }
            if (batch.cpuMilli() <= 0 && batch.memoryBytes() <= 0) {
                continue;
            }
            Sum sum = sums.computeIfAbsent(key(pod), k -> new Sum());
            if (running) {
                sum.running++;
            } else {
                sum.pending++;
            }
            sum.cpuMilli += batch.cpuMilli();
            sum.memoryBytes += batch.memoryBytes();
            String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            if (node != null && !node.isEmpty()) {
                sum.nodes.add(node);
            }
        }
        List<Workload> workloads = new ArrayList<>();
        sums.forEach((k, s) -> workloads.add(new Workload(k.get(0), k.get(1), k.get(2), s.running, s.pending, s.cpuMilli,
                s.memoryBytes, s.nodes.size())));
        workloads.sort(Comparator.comparingLong(Workload::batchCpuMilli).reversed()
                .thenComparing(Workload::namespace).thenComparing(Workload::kind).thenComparing(Workload::name));
        return workloads;
    }

    /** namespace, kind, name of the workload the pod belongs to. */
    private static List<String> key(Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        String spark = labels.get(SPARK_APP_SELECTOR);
        if (spark != null && !spark.isEmpty()) {
            String name = labels.get(SPARK_APP_NAME);
            return List.of(namespace, "SparkApplication", name == null || name.isEmpty() ? spark : name + " (" + spark + ")");
        }
        if (pod.getMetadata().getOwnerReferences() != null) {
            for (OwnerReference owner : pod.getMetadata().getOwnerReferences()) {
                if (Boolean.TRUE.equals(owner.getController())) {
                    return List.of(namespace, owner.getKind(), owner.getName());
                }
            }
        }
        return List.of(namespace, "Pod", pod.getMetadata().getName());
    }

    private static final class Sum {
        int running;
        int pending;
        long cpuMilli;
        long memoryBytes;
        final Set<String> nodes = new HashSet<>();
    }
}
