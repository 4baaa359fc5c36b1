package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.model.KubeQuantity;
import io.colocation.model.TypedObjects;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Iterator;
import java.util.Map;

/**
 * Whether a submitted Pod decodes as a Pod (docs/koordinator-compatibility.md §14.2 step 2): its JSON types as the typed model reads
 * them and the syntax of every quantity the conversion may touch. Explain's input and the admission request are checked
 * by this one rule.
 */
public final class SubmittedPod {
    private SubmittedPod() {
    }

    /** @param here prefixes the error ({@code "file: document 1 (Pod/p)"}, {@code "request.object"}) */
    public static void check(JsonNode pod, String here) throws InvalidInputException {
        Pod typed = TypedObjects.decode(pod, Pod.class, here);
        if (typed.getSpec() == null) {
            return;
        }
        for (String list : new String[] {"initContainers", "containers", "ephemeralContainers"}) {
            JsonNode containers = pod.path("spec").path(list);
            for (int i = 0; i < containers.size(); i++) {
                for (String field : new String[] {"requests", "limits"}) {
                    quantities(containers.get(i).path("resources").path(field), here + ": spec." + list + "[" + i + "].resources."
                            + field);
                }
            }
        }
        quantities(pod.path("spec").path("overhead"), here + ": spec.overhead");
    }

    private static void quantities(JsonNode map, String at) throws InvalidInputException {
        for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual() && !e.getValue().isNumber()) {
                throw new InvalidInputException(at + "." + e.getKey() + ": must be a quantity (a string such as \"500m\")");
            }
            KubeQuantity.parse(e.getValue().asText(), at + "." + e.getKey());
        }
    }
}
