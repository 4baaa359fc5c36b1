package io.colocation.testsupport.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Variants of a valid input for the snapshot commands: each with one field set to null, as a hand-written or half-generated
 * file may have it. A command must answer each with a result or an error naming the file, never an exception.
 */
public final class NullFieldVariants {
    /** One variant: which field is null, and the documents. */
    public record Variant(String field, List<JsonNode> documents) {
    }

    private NullFieldVariants() {
    }

    /** Every variant of {@code documents} with one object field (at any depth) set to null. */
    public static List<Variant> of(List<JsonNode> documents) {
        List<Variant> out = new ArrayList<>();
        for (int d = 0; d < documents.size(); d++) {
            List<List<String>> paths = new ArrayList<>();
            collect(documents.get(d), List.of(), paths);
            for (List<String> path : paths) {
                List<JsonNode> copy = new ArrayList<>();
                for (JsonNode doc : documents) {
                    copy.add(doc.deepCopy());
                }
                setNull(copy.get(d), path);
                out.add(new Variant(documents.get(d).path("kind").asText() + " " + String.join(".", path), copy));
            }
        }
        return out;
    }

    /** Paths of every object field, as the keys (and list indexes) leading to it: keys may hold dots and slashes. */
    private static void collect(JsonNode node, List<String> at, List<List<String>> paths) {
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                List<String> path = new ArrayList<>(at);
                path.add(e.getKey());
                if (!path.equals(List.of("kind")) && !path.equals(List.of("apiVersion"))) {
                    paths.add(path);
                }
                collect(e.getValue(), path, paths);
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                List<String> path = new ArrayList<>(at);
                path.add(Integer.toString(i));
                collect(a.get(i), path, paths);
            }
        }
    }

    private static void setNull(JsonNode root, List<String> path) {
        JsonNode at = root;
        for (int i = 0; i < path.size() - 1; i++) {
            at = at.isArray() ? at.get(Integer.parseInt(path.get(i))) : at.get(path.get(i));
        }
        ((ObjectNode) at).set(path.get(path.size() - 1), NullNode.getInstance());
    }
}
