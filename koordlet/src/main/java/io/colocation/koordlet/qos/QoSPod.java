package io.colocation.koordlet.qos;

import io.colocation.api.PriorityClass;
import io.colocation.api.QoSClass;
import java.util.List;
import java.util.Map;

/**
 * One pod on the node as the QoS strategies see it: its Koordinator classes, eviction labels, requests and the last
 * usage sample (null when it has none).
 *
 * @param rawQoS            the {@code koordinator.sh/qosClass} label only (NONE without it)
 * @param kubeQoS           Kubernetes' QoS class ({@code BestEffort}, ...)
 * @param specPriority      {@code spec.priority}, null when unset
 * @param priority          Koordinator's priority value with default (a non-zero spec.priority, else the class default)
 * @param rawPriorityClass  the priority-class label or spec.priority's range, without the QoS default
 * @param priorityClass     the priority class with the QoS default
 * @param labelPriority     {@code koordinator.sh/priority}, else {@code priority}
 * @param evictionPriority  annotation {@code koordinator.sh/eviction-priority}, 0 without it
 * @param evictionPolicies  annotation {@code koordinator.sh/eviction-policy} (null: any strategy may evict)
 * @param requests          resource name → value (cpu in milli, memory in bytes, batch/mid as their integers)
 * @param pinnedCpus        the CPUs of {@code scheduling.koordinator.sh/resource-status}, empty when none
 */
public record QoSPod(
        String namespace,
        String name,
        QoSClass rawQoS,
        String kubeQoS,
        Integer specPriority,
        int priority,
        PriorityClass rawPriorityClass,
        PriorityClass priorityClass,
        long labelPriority,
        boolean evictionEnabled,
        long evictionPriority,
        List<String> evictionPolicies,
        boolean active,
        Map<String, Long> requests,
        List<Integer> pinnedCpus,
        Long cpuUsedMilli,
        Long memoryUsedBytes) {

    public String key() {
        return namespace + "/" + name;
    }

    /** The same pod with another usage sample. */
    public QoSPod withUsage(Long cpuMilli, Long memoryBytes) {
        return new QoSPod(namespace, name, rawQoS, kubeQoS, specPriority, priority, rawPriorityClass, priorityClass, labelPriority,
                evictionEnabled, evictionPriority, evictionPolicies, active, requests, pinnedCpus, cpuMilli, memoryBytes);
    }

    /** Koordinator's {@code NonBEPodFilter}: neither labelled BE nor Kubernetes BestEffort. */
    public boolean nonBE() {
        return rawQoS != QoSClass.BE && !"BestEffort".equals(kubeQoS);
    }

    public long request(String resource) {
        return requests.getOrDefault(resource, 0L);
    }

    /** The eviction-policy annotation allows the strategy (a malformed annotation allows none, as in Koordinator). */
    public boolean evictionAllowedBy(String strategy) {
        return evictionPolicies == null || evictionPolicies.contains(strategy);
    }
}
