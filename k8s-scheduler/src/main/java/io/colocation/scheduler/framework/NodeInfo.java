package io.colocation.scheduler.framework;

import io.colocation.model.slo.NodeMetric;
import io.fabric8.kubernetes.api.model.Node;
import java.util.List;
import java.util.Map;

/**
 * A node with the pods assigned to it and its NodeMetric (null when it has none).
 *
 * @param allocatable {@code status.allocatable}: cpu in milli-cores, others as integer values
 * @param requested   the sum of the assigned pods' effective requests, same units
 */
public record NodeInfo(Node node, Map<String, Long> allocatable, List<PodInfo> pods, Map<String, Long> requested,
        NodeMetric nodeMetric) {

    public String name() {
        return node.getMetadata().getName();
    }

    public Map<String, String> annotations() {
        return node.getMetadata().getAnnotations() == null ? Map.of() : node.getMetadata().getAnnotations();
    }
}
