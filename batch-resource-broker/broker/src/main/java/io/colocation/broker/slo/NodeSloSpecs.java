package io.colocation.broker.slo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.api.Quantities;
import io.colocation.model.config.SloConfigKey;
import io.colocation.model.config.SloStrategies;
import io.colocation.model.slo.NodeSLO;
import java.util.Map;

/**
 * The NodeSLO spec of one node (docs/koordinator-compatibility.md §11.3): per key, the first node strategy whose
 * selector matches the node's labels, else the cluster strategy. A key without a usable configuration
 * (refused, none good before) keeps the node's existing field. Extensions are kept as they are.
 */
public final class NodeSloSpecs {
    /** Overrides {@code systemStrategy.totalNetworkBandwidth} (a Quantity, bits per second). */
    public static final String ANNOTATION_NETWORK_BANDWIDTH = "node.koordinator.sh/network-bandwidth";

    private NodeSloSpecs() {
    }

    /**
     * @param keys     per key its strategies; a missing entry: keep {@code existing}'s field
     * @param existing the node's NodeSLO spec now, null when there is none
     */
    public static NodeSLO.Spec render(Map<SloConfigKey, SloStrategies> keys, Map<String, String> labels,
            Map<String, String> annotations, NodeSLO.Spec existing) {
        ObjectNode threshold = strategy(keys, SloConfigKey.RESOURCE_THRESHOLD, labels,
                existing == null ? null : existing.resourceUsedThresholdWithBE());
        ObjectNode qos = strategy(keys, SloConfigKey.RESOURCE_QOS, labels, existing == null ? null : existing.resourceQOSStrategy());
        ObjectNode burst = strategy(keys, SloConfigKey.CPU_BURST, labels, existing == null ? null : existing.cpuBurstStrategy());
        ObjectNode system = strategy(keys, SloConfigKey.SYSTEM, labels, existing == null ? null : existing.systemStrategy());
        if (system != null && keys.containsKey(SloConfigKey.SYSTEM)) {
            system = withNetworkBandwidth(system, annotations == null ? null : annotations.get(ANNOTATION_NETWORK_BANDWIDTH));
        }
        ArrayNode apps;
        if (keys.containsKey(SloConfigKey.HOST_APPLICATION)) {
            JsonNode list = keys.get(SloConfigKey.HOST_APPLICATION).forNode(labels).get("applications");
            apps = list instanceof ArrayNode a && !a.isEmpty() ? a : null;
        } else {
            apps = existing == null ? null : existing.hostApplications();
        }
        return new NodeSLO.Spec(threshold, qos, burst, system, existing == null ? null : existing.extensions(), apps);
    }

    private static ObjectNode strategy(Map<SloConfigKey, SloStrategies> keys, SloConfigKey key, Map<String, String> labels,
            ObjectNode existing) {
        SloStrategies strategies = keys.get(key);
        return strategies == null ? existing : strategies.forNode(labels);
    }

    /** Koordinator: the annotation, when it parses, replaces the bandwidth; when it does not, no system strategy. */
    private static ObjectNode withNetworkBandwidth(ObjectNode system, String annotation) {
        if (annotation == null) {
            return system;
        }
        try {
            Quantities.amount(annotation, ANNOTATION_NETWORK_BANDWIDTH);
        } catch (InvalidInputException e) {
            return null;
        }
        system.put("totalNetworkBandwidth", annotation.trim());
        return system;
    }
}
