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
import io.colocation.model.pod.PodClassifier;
import io.colocation.model.pod.PodPhases;
import io.colocation.model.pod.PodRequests;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a Kubernetes pod into the strategies' {@link QoSPod}; the agent and {@code koordlet explain} both use it.
 * Annotations Koordinator tolerates when malformed are ignored with a note; a malformed quantity is an error.
 */
public final class QoSPods {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> EXTENDED = List.of(ResourceNames.BATCH_CPU, ResourceNames.BATCH_MEMORY,
            ResourceNames.MID_CPU, ResourceNames.MID_MEMORY);

    private QoSPods() {
    }

    public static QoSPod of(Pod pod, Long cpuUsedMilli, Long memoryUsedBytes, String where, List<String> notes)
            throws InvalidInputException {
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of()
                : pod.getMetadata().getAnnotations();
        int priority = PodClassifier.priorityValue(pod);
        Resources cpuMemory = PodRequests.of(pod, where);
        Map<String, Long> requests = new LinkedHashMap<>();
        requests.put(ResourceNames.CPU, cpuMemory.cpuMilli());
        requests.put(ResourceNames.MEMORY, cpuMemory.memoryBytes());
        List<Container> containers = io.colocation.model.pod.PodRequests.containers(pod);
        for (String name : EXTENDED) {
            long sum = 0;
            for (int i = 0; i < containers.size(); i++) {
                Quantity q = request(containers.get(i), name);
                if (q != null) {
                    // batch/mid quantities are integers: milli-cores for CPU, bytes for memory
                    long v = Quantities.value(q.toString(), where + "spec.containers[" + i + "].resources.requests." + name);
                    sum += Math.max(v, 0);
                }
            }
            requests.put(name, sum);
        }
        return new QoSPod(pod.getMetadata().getNamespace() == null ? "default" : pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(), PodClassifier.rawQosClass(pod), PodClassifier.kubeQoSClass(pod),
                pod.getSpec() == null ? null : pod.getSpec().getPriority(), priority, PodClassifier.rawPriorityClass(pod),
                PodClassifier.priorityClass(pod), labelPriority(labels, priority),
                "true".equals(labels.get(KoordinatorKeys.LABEL_EVICTION_ENABLED)),
                evictionPriority(annotations.get(KoordinatorKeys.ANNOTATION_EVICTION_PRIORITY), where, notes),
                evictionPolicies(annotations.get(KoordinatorKeys.ANNOTATION_EVICTION_POLICY), where, notes),
                !PodPhases.ended(pod), requests,
                pinnedCpus(annotations.get(KoordinatorKeys.ANNOTATION_RESOURCE_STATUS), where, notes), cpuUsedMilli,
                memoryUsedBytes);
    }

    /** The container's request, the limit standing in for a missing one as the API server defaults it. */
    private static Quantity request(Container c, String name) {
        if (c.getResources() == null) {
            return null;
        }
        if (c.getResources().getRequests() != null && c.getResources().getRequests().containsKey(name)) {
            return c.getResources().getRequests().get(name);
        }
        return c.getResources().getLimits() == null ? null : c.getResources().getLimits().get(name);
    }

    private static long labelPriority(Map<String, String> labels, int priority) {
        String v = labels.get(KoordinatorKeys.LABEL_PRIORITY);
        if (v == null) {
            return priority;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return priority;
        }
    }

    private static long evictionPriority(String value, String where, List<String> notes) {
        if (value == null) {
            return 0;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            notes.add("ignored " + where + "annotation " + KoordinatorKeys.ANNOTATION_EVICTION_PRIORITY + "=\"" + value
                    + "\": not an integer");
            return 0;
        }
    }

    /** A JSON list of strategy names; malformed allows none (Koordinator's reading), with a note. */
    private static List<String> evictionPolicies(String value, String where, List<String> notes) {
        if (value == null) {
            return null;
        }
        try {
            JsonNode list = JSON.readTree(value);
            if (list != null && list.isArray()) {
                List<String> out = new ArrayList<>();
                list.forEach(n -> out.add(n.asText()));
                return out;
            }
        } catch (JsonProcessingException e) {
            // noted below
        }
        notes.add(where + "annotation " + KoordinatorKeys.ANNOTATION_EVICTION_POLICY + " is not a JSON list of strategy"
                + " names: no strategy may evict this pod");
        return List.of();
    }

    private static List<Integer> pinnedCpus(String value, String where, List<String> notes) {
        if (value == null) {
            return List.of();
        }
        try {
            JsonNode status = JSON.readTree(value);
            String cpuset = status == null ? "" : status.path("cpuset").asText("");
            if (cpuset.isEmpty()) {
                return List.of();
            }
            List<Integer> cpus = NodeAnnotations.cpuList(cpuset);
            if (cpus != null) {
                return cpus;
            }
        } catch (JsonProcessingException e) {
            // noted below
        }
        notes.add("ignored " + where + "annotation " + KoordinatorKeys.ANNOTATION_RESOURCE_STATUS + ": no readable cpuset");
        return List.of();
    }
}
