package io.colocation.broker.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.KoordinatorKeys;
import io.colocation.api.PriorityClass;
import io.colocation.api.ResourceNames;
import io.colocation.broker.calculation.NodeState;
import io.colocation.broker.calculation.PodState;
import io.colocation.broker.calculation.Resources;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Turns a Kubernetes Node and the pods bound to it into the calculation's {@link NodeState}. Annotations
 * Koordinator tolerates when malformed (reservation, CPU normalization ratio) are ignored with a note;
 * a malformed {@code thirdPartyAllocations} annotation, which makes Koordinator fail the node's update,
 * is an error.
 */
public final class NodeInputs {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CPU_LIST = Pattern.compile("\\s*\\d+(\\s*-\\s*\\d+)?(\\s*,\\s*\\d+(\\s*-\\s*\\d+)?)*\\s*");

    private NodeInputs() {
    }

    public static NodeState node(Node node, List<Pod> pods, List<String> notes) throws InvalidInputException {
        String name = node.getMetadata().getName();
        String where = "Node " + name;
        Map<String, Quantity> capacity = node.getStatus() == null ? null : node.getStatus().getCapacity();
        Map<String, Quantity> allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
        Map<String, String> annotations = node.getMetadata().getAnnotations() == null ? Map.of() : node.getMetadata().getAnnotations();
        List<PodState> podStates = new ArrayList<>(pods.size());
        for (Pod pod : pods) {
            podStates.add(pod(pod, notes));
        }
        return new NodeState(name,
                ResourceLists.cpuMemory(capacity, where + ": status.capacity"),
                ResourceLists.cpuMemory(allocatable, where + ": status.allocatable"),
                reservation(annotations.get(KoordinatorKeys.ANNOTATION_NODE_RESERVATION), where, notes),
                normalizationRatio(annotations.get(KoordinatorKeys.ANNOTATION_CPU_NORMALIZATION_RATIO), where, notes),
                thirdPartyBatch(annotations.get(KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS), where),
                List.copyOf(podStates));
    }

    /**
     * An extended pair (batch-* or mid-*) of the node's {@code status.allocatable} as published, null when the
     * node does not have it.
     */
    public static Resources allocatable(Node node, String cpuName, String memoryName) throws InvalidInputException {
        Map<String, Quantity> allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
        if (allocatable == null || !allocatable.containsKey(cpuName)) {
            return null;
        }
        return ResourceLists.extended(allocatable, cpuName, memoryName, "Node " + node.getMetadata().getName() + ": status.allocatable");
    }

    public static PodState pod(Pod pod, List<String> notes) throws InvalidInputException {
        String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (phase == null || phase.isEmpty()) {
            notes.add("Pod " + key + " has no status.phase: not counted (Koordinator counts only Running and Pending pods)");
        }
        boolean active = "Running".equals(phase) || "Pending".equals(phase);
        return new PodState(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), active,
                PodClassifier.priorityClass(pod), PodClassifier.qosClass(pod), PodRequests.of(pod, "Pod " + key + ": "));
    }

    /** {@code node.koordinator.sh/reservation}: resources, with reservedCPUs' count replacing the CPU. */
    static Resources reservation(String json, String where, List<String> notes) throws InvalidInputException {
        if (json == null) {
            return Resources.ZERO;
        }
        String at = where + ": annotation " + KoordinatorKeys.ANNOTATION_NODE_RESERVATION;
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            notes.add("ignored " + at + ": malformed JSON (" + e.getOriginalMessage() + ")");
            return Resources.ZERO;
        }
        if (root == null || !root.isObject()) {
            notes.add("ignored " + at + ": not a JSON object");
            return Resources.ZERO;
        }
        Resources reserved = ResourceLists.cpuMemory(root.get("resources"), at + " resources");
        JsonNode cpus = root.get("reservedCPUs");
        if (cpus != null && cpus.isTextual() && !cpus.textValue().isEmpty()) {
            int count = countCpus(cpus.textValue());
            if (count < 0) {
                notes.add("ignored " + at + ": reservedCPUs \"" + cpus.textValue() + "\" is not a CPU list such as 0-3,8");
            } else {
                reserved = new Resources(count * 1000L, reserved.memoryBytes());
            }
        }
        return reserved;
    }

    /** The number of CPUs in a Linux CPU list ({@code 0-3,8}), or -1 if it is not one. */
    static int countCpus(String list) {
        if (!CPU_LIST.matcher(list).matches()) {
            return -1;
        }
        java.util.BitSet cpus = new java.util.BitSet();
        for (String part : list.split(",")) {
            String[] range = part.trim().split("\\s*-\\s*");
            int from = Integer.parseInt(range[0]);
            int to = range.length == 2 ? Integer.parseInt(range[1]) : from;
            if (to < from) {
                return -1;
            }
            cpus.set(from, to + 1);
        }
        return cpus.cardinality();
    }

    static Double normalizationRatio(String value, String where, List<String> notes) {
        if (value == null) {
            return null;
        }
        try {
            double ratio = Double.parseDouble(value.trim());
            if (Double.isNaN(ratio) || Double.isInfinite(ratio)) {
                throw new NumberFormatException();
            }
            return ratio;
        } catch (NumberFormatException e) {
            notes.add("ignored " + where + ": annotation " + KoordinatorKeys.ANNOTATION_CPU_NORMALIZATION_RATIO + "=\""
                    + value + "\" is not a number");
            return null;
        }
    }

    /** Sum of the {@code koord-batch} entries of {@code node.koordinator.sh/thirdPartyAllocations}; null if absent. */
    static Resources thirdPartyBatch(String json, String where) throws InvalidInputException {
        if (json == null) {
            return null;
        }
        String at = where + ": annotation " + KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS;
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidInputException(at + ": malformed JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new InvalidInputException(at + ": must be a JSON object {\"allocations\":[...]}");
        }
        Resources sum = Resources.ZERO;
        JsonNode allocations = root.path("allocations");
        for (int i = 0; i < allocations.size(); i++) {
            JsonNode a = allocations.get(i);
            if (PriorityClass.fromName(a.path("priority").asText()) != PriorityClass.BATCH) {
                continue;
            }
            JsonNode resources = a.path("resources");
            String entry = at + " allocations[" + i + "].resources.";
            long cpu = resources.has(ResourceNames.BATCH_CPU)
                    ? Quantities.value(resources.get(ResourceNames.BATCH_CPU).asText(), entry + ResourceNames.BATCH_CPU) : 0;
            long memory = resources.has(ResourceNames.BATCH_MEMORY)
                    ? Quantities.value(resources.get(ResourceNames.BATCH_MEMORY).asText(), entry + ResourceNames.BATCH_MEMORY) : 0;
            sum = sum.plus(new Resources(cpu, memory));
        }
        return sum;
    }
}
