package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes' strategic merge patch of a Pod (docs/koordinator-compatibility.md §14.5 step 10), on JSON trees: maps merge
 * recursively, {@code null} deletes a key, the Pod's lists with a merge key merge element by element (by {@code name},
 * {@code containerPort}, {@code mountPath}, ...), {@code metadata.finalizers} merges as a set, every other list is
 * replaced. The directives {@code $patch: replace|delete|merge}, {@code $retainKeys}, {@code $setElementOrder/<list>} and
 * {@code $deleteFromPrimitiveList/<list>} are honoured.
 */
final class StrategicMergePatch {
    private static final String PATCH = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String SET_ORDER = "$setElementOrder/";
    private static final String DELETE_FROM = "$deleteFromPrimitiveList/";

    /** A patch that cannot be applied; the message is what the webhook answers. */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }

    /** Merge keys of the Pod's lists, by path (list elements are {@code []}); {@code *} a merged list of values. */
    private static final Map<String, String> MERGE_KEYS = mergeKeys();

    private static Map<String, String> mergeKeys() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String containers : List.of("spec.containers", "spec.initContainers", "spec.ephemeralContainers")) {
            m.put(containers, "name");
            m.put(containers + "[].env", "name");
            m.put(containers + "[].ports", "containerPort");
            m.put(containers + "[].volumeMounts", "mountPath");
            m.put(containers + "[].volumeDevices", "devicePath");
        }
        m.put("spec.volumes", "name");
        m.put("spec.imagePullSecrets", "name");
        m.put("spec.schedulingGates", "name");
        m.put("spec.resourceClaims", "name");
        m.put("spec.hostAliases", "ip");
        m.put("spec.topologySpreadConstraints", "topologyKey");
        m.put("metadata.ownerReferences", "uid");
        m.put("metadata.finalizers", "*");
        return m;
    }

    private StrategicMergePatch() {
    }

    /** {@code original} patched (a new tree; the original is not changed). */
    static ObjectNode apply(ObjectNode original, JsonNode patch) throws Failure {
        if (patch == null || !patch.isObject()) {
            throw new Failure("unable to apply the patch: it is not a JSON object but " + shape(patch));
        }
        JsonNode merged = mergeMap(original.deepCopy(), (ObjectNode) patch, "");
        if (merged == null || !merged.isObject()) {
            throw new Failure("the patch deletes the whole Pod");
        }
        return (ObjectNode) merged;
    }

    /** The merged map, or null when the patch deletes it ({@code $patch: delete}). */
    private static JsonNode mergeMap(ObjectNode original, ObjectNode patch, String path) throws Failure {
        String directive = patch.path(PATCH).asText(null);
        if ("delete".equals(directive)) {
            return null;
        }
        if ("replace".equals(directive)) {
            return withoutDirectives(patch);
        }
        if (directive != null && !"merge".equals(directive)) {
            throw new Failure("unknown patch type: " + directive + " in map at " + where(path));
        }
        Map<String, List<JsonNode>> orders = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (key.equals(PATCH) || key.equals(RETAIN_KEYS)) {
                continue;
            }
            if (key.startsWith(SET_ORDER)) {
                List<JsonNode> order = new ArrayList<>();
                value.forEach(order::add);
                orders.put(key.substring(SET_ORDER.length()), order);
                continue;
            }
            if (key.startsWith(DELETE_FROM)) {
                JsonNode list = original.get(key.substring(DELETE_FROM.length()));
                if (list != null && list.isArray()) {
                    Set<JsonNode> gone = new LinkedHashSet<>();
                    value.forEach(gone::add);
                    ArrayNode kept = JsonNodeFactory.instance.arrayNode();
                    list.forEach(v -> {
                        if (!gone.contains(v)) {
                            kept.add(v);
                        }
                    });
                    original.set(key.substring(DELETE_FROM.length()), kept);
                }
                continue;
            }
            String child = path.isEmpty() ? key : path + "." + key;
            JsonNode have = original.get(key);
            if (value.isNull()) {
                original.remove(key);
            } else if (have == null || have.isNull() || have.getNodeType() != value.getNodeType()) {
                original.set(key, withoutDirectives(value));
            } else if (value.isObject()) {
                JsonNode merged = mergeMap((ObjectNode) have, (ObjectNode) value, child);
                if (merged == null) {
                    original.remove(key);
                } else {
                    original.set(key, merged);
                }
            } else if (value.isArray()) {
                original.set(key, mergeList((ArrayNode) have, (ArrayNode) value, child));
            } else {
                original.set(key, value);
            }
        }
        orders.forEach((list, order) -> {
            JsonNode l = original.get(list);
            if (l != null && l.isArray()) {
                original.set(list, ordered((ArrayNode) l, order, MERGE_KEYS.get(elementPath(path, list))));
            }
        });
        JsonNode retain = patch.get(RETAIN_KEYS);
        if (retain != null && retain.isArray()) {
            Set<String> keep = new LinkedHashSet<>();
            retain.forEach(k -> keep.add(k.asText()));
            original.retain(keep);
        }
        return original;
    }

    private static ArrayNode mergeList(ArrayNode original, ArrayNode patch, String path) throws Failure {
        String key = MERGE_KEYS.get(path);
        if (key == null) {
            return (ArrayNode) withoutDirectives(patch); // a list without merge strategy is replaced
        }
        if (key.equals("*")) {
            Set<JsonNode> both = new LinkedHashSet<>();
            original.forEach(both::add);
            patch.forEach(both::add);
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            both.forEach(out::add);
            return out;
        }
        for (JsonNode p : patch) {
            if (p.isObject() && "replace".equals(p.path(PATCH).asText(null))) {
                ArrayNode replaced = JsonNodeFactory.instance.arrayNode();
                for (JsonNode q : patch) {
                    if (!(q.isObject() && q.has(PATCH))) {
                        replaced.add(withoutDirectives(q));
                    }
                }
                return replaced;
            }
        }
        List<JsonNode> result = new ArrayList<>();
        original.forEach(result::add);
        for (JsonNode p : patch) {
            if (!p.isObject()) {
                throw new Failure("the list " + where(path) + " holds objects merged by \"" + key + "\", not " + shape(p));
            }
            JsonNode id = p.get(key);
            if (id == null) {
                throw new Failure("map: " + p + " does not contain declared merge key: " + key);
            }
            int at = indexOf(result, key, id);
            if ("delete".equals(p.path(PATCH).asText(null))) {
                if (at >= 0) {
                    result.remove(at);
                }
                continue;
            }
            if (at >= 0) {
                JsonNode merged = mergeMap((ObjectNode) result.get(at).deepCopy(), (ObjectNode) p, path + "[]");
                if (merged == null) {
                    result.remove(at);
                } else {
                    result.set(at, merged);
                }
            } else {
                result.add(withoutDirectives(p));
            }
        }
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        result.forEach(out::add);
        return out;
    }

    private static int indexOf(List<JsonNode> elements, String key, JsonNode id) {
        for (int i = 0; i < elements.size(); i++) {
            if (elements.get(i).isObject() && id.equals(elements.get(i).get(key))) {
                return i;
            }
        }
        return -1;
    }

    /** The elements named in {@code order} first, in that order, then the others as they were. */
    private static ArrayNode ordered(ArrayNode list, List<JsonNode> order, String key) {
        List<JsonNode> rest = new ArrayList<>();
        list.forEach(rest::add);
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (JsonNode o : order) {
            for (Iterator<JsonNode> it = rest.iterator(); it.hasNext();) {
                JsonNode e = it.next();
                boolean same = key == null || key.equals("*") ? e.equals(o) : e.isObject() && o.isObject() && e.get(key) != null
                        && e.get(key).equals(o.get(key));
                if (same) {
                    out.add(e);
                    it.remove();
                    break;
                }
            }
        }
        rest.forEach(out::add);
        return out;
    }

    /** A patch value as it is stored: directives removed, at every level. */
    private static JsonNode withoutDirectives(JsonNode value) {
        if (value.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            value.fields().forEachRemaining(e -> {
                if (!e.getKey().startsWith("$")) {
                    out.set(e.getKey(), withoutDirectives(e.getValue()));
                }
            });
            return out;
        }
        if (value.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            value.forEach(v -> {
                if (!(v.isObject() && v.has(PATCH) && v.size() == 1)) {
                    out.add(withoutDirectives(v));
                }
            });
            return out;
        }
        return value;
    }

    private static String elementPath(String mapPath, String list) {
        return mapPath.isEmpty() ? list : mapPath + "." + list;
    }

    private static String where(String path) {
        return path.isEmpty() ? "the top level" : path;
    }

    private static String shape(JsonNode n) {
        return n == null || n.isNull() ? "null" : n.isArray() ? "a list" : n.isTextual() ? "a string" : n.isNumber() ? "a number"
                : n.isBoolean() ? "a boolean" : "an object";
    }
}
