package io.colocation.broker.slo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What a per-node controller must write (Koordinator's reconcile, docs/koordinator-compatibility.md §11): node without
 * object → create; object whose spec differs → update; object without node → delete. Pure: from the nodes,
 * the objects' specs as they are and the desired spec of each node.
 */
public record ObjectPlan(List<Write> creates, List<Write> updates, List<String> deletes) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The spec to write for a node. */
    public record Write(Node node, JsonNode spec) {
    }

    public boolean isEmpty() {
        return creates.isEmpty() && updates.isEmpty() && deletes.isEmpty();
    }

    /**
     * @param existing the spec of each object by name (a JSON null when it has none)
     * @param desired  the spec a node's object should have; null: leave the node's object as it is
     */
    public static ObjectPlan of(List<Node> nodes, Map<String, JsonNode> existing, Function<Node, Object> desired) {
        List<Write> creates = new ArrayList<>();
        List<Write> updates = new ArrayList<>();
        Set<String> names = new java.util.HashSet<>();
        for (Node node : nodes) {
            String name = node.getMetadata().getName();
            names.add(name);
            Object spec = desired.apply(node);
            if (spec == null) {
                continue;
            }
            JsonNode want = JSON.valueToTree(spec);
            JsonNode have = existing.get(name);
            if (have == null) {
                creates.add(new Write(node, want));
            } else if (!want.equals(have)) {
                updates.add(new Write(node, want));
            }
        }
        List<String> deletes = existing.keySet().stream().filter(n -> !names.contains(n)).sorted().toList();
        return new ObjectPlan(List.copyOf(creates), List.copyOf(updates), deletes);
    }
}
