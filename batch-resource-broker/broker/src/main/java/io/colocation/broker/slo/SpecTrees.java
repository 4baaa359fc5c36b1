package io.colocation.broker.slo;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.model.slo.KoordinatorResource;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The spec of each per-node object as the plans compare it, made again only when the object's {@code generation} changed
 * (the API server raises it on spec changes only: the koordlet's status reports leave it alone). The controllers compare
 * every node's object every round; at thousands of nodes, converting every spec every second was most of their cost.
 * The controllers' thread's own.
 */
final class SpecTrees {
    private record Tree(String uid, long generation, JsonNode spec) {
    }

    private final Map<String, Tree> byName = new HashMap<>();

    /** The object's spec (a JSON null when it has none), by name. */
    JsonNode of(KoordinatorResource object, Object spec) {
        String name = object.getMetadata().getName();
        String uid = object.getMetadata().getUid();
        Long generation = object.getMetadata().getGeneration();
        Tree t = byName.get(name);
        if (t != null && generation != null && uid != null && uid.equals(t.uid()) && generation == t.generation()) {
            return t.spec();
        }
        JsonNode tree = SloObjectWriter.specOf(spec);
        if (generation != null && uid != null) {
            byName.put(name, new Tree(uid, generation, tree));
        }
        return tree;
    }

    /** Forgets the objects that are gone. */
    void retain(Set<String> names) {
        byName.keySet().retainAll(names);
    }
}
