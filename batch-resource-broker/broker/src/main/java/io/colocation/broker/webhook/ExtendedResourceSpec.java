package io.colocation.broker.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.api.ResourceNames;
import io.colocation.model.KubeQuantity;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Stage 2 (docs/koordinator-compatibility.md §14.7): the batch resources of each regular container recorded in the annotation
 * {@code node.koordinator.sh/extended-resource-spec}, written as Go's {@code json.Marshal} writes it (keys sorted,
 * {@code limits} before {@code requests}, empty maps left out, canonical quantities), and only when it differs from
 * what the pod carries.
 */
final class ExtendedResourceSpec {
    static final String ANNOTATION = "node.koordinator.sh/extended-resource-spec";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] RESOURCES = {ResourceNames.BATCH_CPU, ResourceNames.BATCH_MEMORY};

    private ExtendedResourceSpec() {
    }

    static void annotate(ObjectNode pod) throws PodMutation.Denied {
        Map<String, Map<String, Map<String, String>>> computed = new TreeMap<>();
        for (JsonNode c : pod.path("spec").path("containers")) {
            Map<String, Map<String, String>> spec = new TreeMap<>();
            for (String field : new String[] {"limits", "requests"}) {
                Map<String, String> values = new TreeMap<>();
                for (String r : RESOURCES) {
                    JsonNode q = c.path("resources").path(field).get(r);
                    if (q != null && !q.isNull()) {
                        values.put(r, q.asText());
                    }
                }
                if (!values.isEmpty()) {
                    spec.put(field, values);
                }
            }
            if (!spec.isEmpty()) {
                computed.put(c.path("name").asText(""), spec);
            }
        }
        JsonNode annotations = pod.path("metadata").path("annotations");
        JsonNode current = annotations.get(ANNOTATION);
        if (current == null && computed.isEmpty()) {
            return;
        }
        if (current != null && same(computed, read(current.asText()))) {
            return;
        }
        PodMutation.object(PodMutation.object(pod, "metadata"), "annotations").put(ANNOTATION, write(computed));
    }

    /** The current annotation as Koordinator parses it; invalid → the pod is refused with Koordinator's words. */
    private static Map<String, Map<String, Map<String, KubeQuantity>>> read(String text) throws PodMutation.Denied {
        Map<String, Map<String, Map<String, KubeQuantity>>> out = new TreeMap<>();
        try {
            JsonNode root = JSON.readTree(text);
            if (root == null || !root.isObject()) {
                throw new InvalidInputException("json: cannot unmarshal " + (root == null ? "nothing" : root.getNodeType().name()
                        .toLowerCase(java.util.Locale.ROOT)) + " into Go value of type extension.ExtendedResourceSpec");
            }
            JsonNode containers = root.get("containers");
            if (containers == null || containers.isNull()) {
                return out;
            }
            if (!containers.isObject()) {
                throw new InvalidInputException("json: cannot unmarshal into Go struct field ExtendedResourceSpec.containers");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = containers.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> c = it.next();
                Map<String, Map<String, KubeQuantity>> spec = new TreeMap<>();
                for (String field : new String[] {"limits", "requests"}) {
                    JsonNode values = c.getValue().get(field);
                    if (values == null || values.isNull()) {
                        continue;
                    }
                    if (!values.isObject()) {
                        throw new InvalidInputException("json: cannot unmarshal into Go struct field " + field);
                    }
                    Map<String, KubeQuantity> m = new TreeMap<>();
                    for (Iterator<Map.Entry<String, JsonNode>> v = values.fields(); v.hasNext();) {
                        Map.Entry<String, JsonNode> e = v.next();
                        m.put(e.getKey(), KubeQuantity.parse(e.getValue().asText(), "quantities must match the regular"
                                + " expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
                    }
                    if (!m.isEmpty()) {
                        spec.put(field, m);
                    }
                }
                if (!spec.isEmpty()) {
                    out.put(c.getKey(), spec);
                }
            }
            return out;
        } catch (JsonProcessingException e) {
            throw new PodMutation.Denied("failed to get current extended resource spec, err: " + e.getOriginalMessage());
        } catch (InvalidInputException e) {
            throw new PodMutation.Denied("failed to get current extended resource spec, err: " + e.getMessage());
        }
    }

    /** Go's {@code reflect.DeepEqual} of the two specs: same containers, fields, resources and quantity representations. */
    private static boolean same(Map<String, Map<String, Map<String, String>>> computed,
            Map<String, Map<String, Map<String, KubeQuantity>>> current) throws PodMutation.Denied {
        if (!computed.keySet().equals(current.keySet())) {
            return false;
        }
        for (Map.Entry<String, Map<String, Map<String, String>>> c : computed.entrySet()) {
            Map<String, Map<String, KubeQuantity>> have = current.get(c.getKey());
            if (!c.getValue().keySet().equals(have.keySet())) {
                return false;
            }
            for (Map.Entry<String, Map<String, String>> f : c.getValue().entrySet()) {
                Map<String, KubeQuantity> values = have.get(f.getKey());
                if (!f.getValue().keySet().equals(values.keySet())) {
                    return false;
                }
                for (Map.Entry<String, String> v : f.getValue().entrySet()) {
                    if (!quantity(v.getValue()).sameRepresentation(values.get(v.getKey()))) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static String write(Map<String, Map<String, Map<String, String>>> computed) throws PodMutation.Denied {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        if (!computed.isEmpty()) {
            ObjectNode containers = root.putObject("containers");
            for (Map.Entry<String, Map<String, Map<String, String>>> c : computed.entrySet()) {
                ObjectNode spec = containers.putObject(c.getKey());
                for (Map.Entry<String, Map<String, String>> f : c.getValue().entrySet()) {
                    ObjectNode values = spec.putObject(f.getKey());
                    for (Map.Entry<String, String> v : f.getValue().entrySet()) {
                        values.put(v.getKey(), quantity(v.getValue()).canonical());
                    }
                }
            }
        }
        return root.toString();
    }

    private static KubeQuantity quantity(String text) throws PodMutation.Denied {
        try {
            return KubeQuantity.parse(text, "quantity");
        } catch (InvalidInputException e) {
            throw new PodMutation.Denied(e.getMessage());
        }
    }
}
