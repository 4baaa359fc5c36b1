package io.colocation.broker.calculation;

import io.colocation.api.KoordinatorKeys;
import io.colocation.api.PriorityClass;
import io.colocation.broker.calculation.NodeState;
import io.colocation.broker.calculation.PodState;
import io.colocation.api.InvalidInputException;
import io.colocation.model.ResourceLists;
import io.colocation.model.Resources;
import io.colocation.model.node.NodeAnnotations;
import io.colocation.model.pod.PodClassifier;
import io.colocation.model.pod.PodPhases;
import io.colocation.model.pod.PodRequests;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads a Kubernetes Node and the pods bound to it into the calculation's {@link NodeState}. */
public final class NodeStateReader {

    private NodeStateReader() {
    }

    /** Reads one pod into its {@link PodState}, adding what it ignored or assumed to {@code notes}. */
    @FunctionalInterface
    public interface PodReader {
        PodState read(Pod pod, List<String> notes) throws InvalidInputException;
    }

    public static NodeState node(Node node, List<Pod> pods, List<String> notes) throws InvalidInputException {
        return node(node, pods, notes, NodeStateReader::pod);
    }

    /** As above, each pod read by {@code reader} (the broker's memo reads a pod's quantities once per resourceVersion). */
    public static NodeState node(Node node, List<Pod> pods, List<String> notes, PodReader reader) throws InvalidInputException {
        String name = node.getMetadata().getName();
        String where = "Node " + name;
        Map<String, Quantity> capacity = node.getStatus() == null ? null : node.getStatus().getCapacity();
        Map<String, Quantity> allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
        Map<String, String> annotations = node.getMetadata().getAnnotations() == null ? Map.of() : node.getMetadata().getAnnotations();
        List<PodState> podStates = new ArrayList<>(pods.size());
        for (Pod pod : pods) {
            podStates.add(reader.read(pod, notes));
        }
        return new NodeState(name,
                ResourceLists.cpuMemory(capacity, where + ": status.capacity"),
                ResourceLists.cpuMemory(allocatable, where + ": status.allocatable"),
                NodeAnnotations.reservation(annotations.get(KoordinatorKeys.ANNOTATION_NODE_RESERVATION), where, notes),
                NodeAnnotations.normalizationRatio(annotations.get(KoordinatorKeys.ANNOTATION_CPU_NORMALIZATION_RATIO), where, notes),
                NodeAnnotations.thirdPartyBatch(annotations.get(KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS), where),
                List.copyOf(podStates));
    }

    /**
     * An extended pair (batch-* or mid-*) of the node's {@code status.allocatable} as published, null when the
     * node does not have it, or when it cannot be read (then with a note saying so).
     */
    public static Resources published(Node node, String cpuName, String memoryName, List<String> notes) {
        Map<String, Quantity> allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
        if (allocatable == null || !allocatable.containsKey(cpuName)) {
            return null;
        }
        try {
            return ResourceLists.extended(allocatable, cpuName, memoryName, "Node " + node.getMetadata().getName() + ": status.allocatable");
        } catch (InvalidInputException e) {
            notes.add("the published " + cpuName + "/" + memoryName + " cannot be read (" + e.getMessage() + "): counted as absent");
            return null;
        }
    }

    public static PodState pod(Pod pod, List<String> notes) throws InvalidInputException {
        String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        String phase = PodPhases.of(pod);
        if (phase == null || phase.isEmpty()) {
            notes.add("Pod " + key + " has no status.phase: not counted (Koordinator counts only Running and Pending pods)");
        }
        boolean active = PodPhases.RUNNING.equals(phase) || PodPhases.PENDING.equals(phase);
        return new PodState(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), active,
                PodClassifier.priorityClass(pod), PodClassifier.qosClass(pod), PodRequests.of(pod, "Pod " + key + ": "));
    }
}
