package io.colocation.model.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.model.labels.LabelSelector;
import java.util.List;
import java.util.Map;

/**
 * One {@code slo-controller-config} key, parsed and merged: the cluster strategy (defaults ⊕ the cluster's
 * fields) and each node strategy (cluster ⊕ its own fields), in the ConfigMap's order.
 */
public record SloStrategies(SloConfigKey key, ObjectNode cluster, List<NodeStrategy> nodeStrategies) {

    public record NodeStrategy(String name, LabelSelector selector, ObjectNode strategy) {
    }

    /** What the key says when it is absent from the ConfigMap. */
    public static SloStrategies defaults(SloConfigKey key) {
        return new SloStrategies(key, key.defaults(), List.of());
    }

    /** The strategy of the first node strategy whose selector matches, else the cluster's (a copy). */
    public ObjectNode forNode(Map<String, String> labels) {
        for (NodeStrategy s : nodeStrategies) {
            if (s.selector().matches(labels)) {
                return s.strategy().deepCopy();
            }
        }
        return cluster.deepCopy();
    }
}
