package io.colocation.scheduler.framework;

import static io.colocation.scheduler.framework.PluginFixtures.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The cache's nodes in name order: changed nodes replaced in place, a node that came or went reorders them. */
class NodeTableTest {
    private static NodeInfo named(String name) {
        return node("metadata: {name: " + name + "}\n", List.of(), null);
    }

    private static List<String> names(NodeOrder order) {
        return order.asList().stream().map(NodeInfo::name).toList();
    }

    @Test
    void replacesChangedNodesAndReordersWhenOneComesOrGoes() {
        NodeTable table = new NodeTable();
        Map<String, NodeInfo> cluster = new HashMap<>();
        for (String n : List.of("c", "a", "b")) {
            cluster.put(n, named(n));
        }
        NodeOrder v1 = table.rebuild(Set.of("c", "a", "b"), (name, was) -> cluster.get(name));
        assertEquals(List.of("a", "b", "c"), names(v1));
        assertSame(v1, table.rebuild(Set.of(), (name, was) -> { throw new AssertionError("nothing changed"); }));

        NodeInfo b2 = named("b");
        NodeOrder v2 = table.rebuild(Set.of("b"), (name, was) -> {
            assertSame(cluster.get("b"), was, "the builder is given the node's last version");
            return b2;
        });
        assertSame(b2, v2.asList().get(1));
        assertSame(b2, table.get("b"));
        assertEquals(List.of("a", "b", "c"), names(v1), "the last snapshot's order is left as it was");

        cluster.put("aa", named("aa"));
        cluster.remove("c");
        NodeOrder v3 = table.rebuild(Set.of("aa", "c"), (name, was) -> cluster.get(name));
        assertEquals(List.of("a", "aa", "b"), names(v3));
        assertNull(table.get("c"));
        assertEquals(List.of("a", "aa", "b", "d"), names(table.rebuild(Set.of("d"), (name, was) -> named(name))));
        assertEquals(List.of("a", "aa", "b", "d"), names(table.rebuild(Set.of("e"), (name, was) -> null)), "an unreadable node is left out");
    }
}
