package io.colocation.koordlet.qos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import io.colocation.api.KoordinatorKeys;
import io.colocation.api.Quantities;
import io.colocation.api.ResourceNames;
import io.colocation.model.Resources;
import io.colocation.model.node.NodeAnnotations;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the strategies read from the {@code Node}: capacity, allocatable, the CPU reservation (the larger of the
 * kubelet's and the {@code node.koordinator.sh/reservation} annotation's) and CPUs kept from BE.
 *
 * @param allocatable cpu in milli-cores, everything else as its integer value
 */
public record QoSNode(String name, long capacityCpuMilli, long capacityMemoryBytes, Map<String, Long> allocatable,
        long reservedCpuMilli, List<Integer> reservedCpus, List<Integer> systemExclusiveCpus) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static QoSNode of(Node node, String where, List<String> notes) throws InvalidInputException {
        Map<String, Quantity> capacity = node.getStatus() == null || node.getStatus().getCapacity() == null ? Map.of()
                : node.getStatus().getCapacity();
        Map<String, Quantity> alloc = node.getStatus() == null || node.getStatus().getAllocatable() == null ? Map.of()
                : node.getStatus().getAllocatable();
        long capCpu = milli(capacity.get(ResourceNames.CPU), where + "status.capacity.cpu");
        long capMemory = value(capacity.get(ResourceNames.MEMORY), where + "status.capacity.memory");
        Map<String, Long> allocatable = new LinkedHashMap<>();
        for (Map.Entry<String, Quantity> e : alloc.entrySet()) {
            String field = where + "status.allocatable." + e.getKey();
            allocatable.put(e.getKey(), e.getKey().equals(ResourceNames.CPU) ? milli(e.getValue(), field) : value(e.getValue(), field));
        }
        long kubeletReserved = alloc.containsKey(ResourceNames.CPU) ? Math.max(capCpu - allocatable.get(ResourceNames.CPU), 0) : 0;
        Map<String, String> annotations = node.getMetadata().getAnnotations() == null ? Map.of()
                : node.getMetadata().getAnnotations();
        Resources annotated = NodeAnnotations.reservation(annotations.get(KoordinatorKeys.ANNOTATION_NODE_RESERVATION),
                where.replaceAll(": $", ""), notes);
        return new QoSNode(node.getMetadata().getName(), capCpu, capMemory, allocatable,
                Math.max(kubeletReserved, annotated.cpuMilli()),
                cpuListField(annotations.get(KoordinatorKeys.ANNOTATION_NODE_RESERVATION), "reservedCPUs", null),
                cpuListField(annotations.get(KoordinatorKeys.ANNOTATION_SYSTEM_QOS_RESOURCE), "cpuset", "cpusetExclusive"));
    }

    /** A CPU list field of a JSON annotation; empty when absent, malformed, or (with {@code exclusive}) not exclusive. */
    private static List<Integer> cpuListField(String json, String field, String exclusive) {
        if (json == null) {
            return List.of();
        }
        try {
            JsonNode root = JSON.readTree(json);
            if (root == null || !root.isObject()) {
                return List.of();
            }
            if (exclusive != null && root.has(exclusive) && !root.get(exclusive).asBoolean(true)) {
                return List.of();
            }
            List<Integer> cpus = NodeAnnotations.cpuList(root.path(field).asText(""));
            return cpus == null ? List.of() : cpus;
        } catch (JsonProcessingException e) {
            return List.of(); // the reservation's own reader notes it; Koordinator ignores both
        }
    }

    private static long milli(Quantity q, String where) throws InvalidInputException {
        return q == null ? 0 : Quantities.milliValue(q.toString(), where);
    }

    private static long value(Quantity q, String where) throws InvalidInputException {
        return q == null ? 0 : Quantities.value(q.toString(), where);
    }
}
