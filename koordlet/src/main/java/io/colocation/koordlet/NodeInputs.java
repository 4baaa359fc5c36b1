package io.colocation.koordlet;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import io.colocation.model.KubeTime;
import io.colocation.api.QoSClass;
import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.predict.PredictorPod;
import io.colocation.koordlet.report.ReportInputs;
import io.colocation.model.ResourceLists;
import io.colocation.model.Resources;
import io.colocation.model.pod.PodClassifier;
import io.colocation.model.pod.PodPhases;
import io.colocation.model.pod.PodRequests;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Turns this node's Kubernetes objects into what the collectors, the predictor and the report need. Pure: a pod or
 * node whose fields cannot be read is left out and the problem handed to {@code problem} (subject, cause).
 */
public final class NodeInputs {
    /** Koordinator's annotation with the node's allocatable before amplification. */
    public static final String RAW_ALLOCATABLE = "node.koordinator.sh/raw-allocatable";
    private static final ObjectMapper JSON = new ObjectMapper();

    private NodeInputs() {
    }

    /** The pod's cgroups to measure (Running pods only), or null. */
    public static CollectTargets.PodTarget podTarget(Pod p) {
        if (!PodPhases.running(p) || p.getMetadata().getUid() == null) {
            return null;
        }
        List<CollectTargets.ContainerTarget> containers = new ArrayList<>();
        for (ContainerStatus s : p.getStatus().getContainerStatuses()) {
            if (s.getContainerID() != null && !s.getContainerID().isEmpty()) {
                containers.add(new CollectTargets.ContainerTarget(s.getName(), s.getContainerID()));
            }
        }
        return new CollectTargets.PodTarget(p.getMetadata().getUid(), p.getMetadata().getNamespace(), p.getMetadata().getName(),
                PodClassifier.kubeQoSClass(p), containers);
    }

    public static List<ReportInputs.Pod> reportPods(List<Pod> pods) {
        List<ReportInputs.Pod> result = new ArrayList<>();
        for (Pod p : pods) {
            if (p.getMetadata().getUid() == null) {
                continue;
            }
            QoSClass qos = PodClassifier.qosClass(p);
            result.add(new ReportInputs.Pod(p.getMetadata().getUid(), p.getMetadata().getNamespace(), p.getMetadata().getName(),
                    PodClassifier.priorityClass(p).koordName(), qos == QoSClass.NONE ? "" : qos.name()));
        }
        return result;
    }

    /** The pod as the predictor reads it (requests, creation, priority class, whether it is ending); null without a uid. */
    public static PredictorPod predictorPod(Pod p, String where) throws InvalidInputException {
        if (p.getMetadata().getUid() == null) {
            return null;
        }
        Resources requests = PodRequests.of(p, where);
        Instant created = KubeTime.parse(p.getMetadata().getCreationTimestamp(), "metadata.creationTimestamp");
        boolean ending = p.getMetadata().getDeletionTimestamp() != null || PodPhases.ended(p);
        return new PredictorPod(p.getMetadata().getUid(), PodClassifier.priorityClass(p), created, ending, requests);
    }

    /** {@code node.koordinator.sh/raw-allocatable} when present and readable, else {@code status.allocatable}; null if neither. */
    public static Resources allocatable(Node node, BiConsumer<String, String> problem) {
        String where = "Node " + node.getMetadata().getName();
        Map<String, String> annotations = node.getMetadata().getAnnotations();
        String raw = annotations == null ? null : annotations.get(RAW_ALLOCATABLE);
        if (raw != null && !raw.isBlank()) {
            try {
                return ResourceLists.cpuMemory(JSON.readTree(raw), where + " annotation " + RAW_ALLOCATABLE);
            } catch (IOException | InvalidInputException e) {
                problem.accept(where, "annotation " + RAW_ALLOCATABLE + " is not a resource list (" + e.getMessage()
                        + "); using status.allocatable");
            }
        }
        if (node.getStatus() == null || node.getStatus().getAllocatable() == null) {
            problem.accept(where, "no status.allocatable");
            return null;
        }
        try {
            return ResourceLists.cpuMemory(node.getStatus().getAllocatable(), where + " status.allocatable");
        } catch (InvalidInputException e) {
            problem.accept(where, e.getMessage());
            return null;
        }
    }
}
