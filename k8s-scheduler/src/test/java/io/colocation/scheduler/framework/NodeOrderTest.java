package io.colocation.scheduler.framework;

import static io.colocation.scheduler.framework.PluginFixtures.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.RandomAccess;
import org.junit.jupiter.api.Test;

/** A new version of the node order replaces nodes and leaves every earlier version (an earlier snapshot's) as it was. */
class NodeOrderTest {
    private static NodeInfo named(String name) {
        return node("metadata: {name: " + name + "}\n", List.of(), null);
    }

    private static NodeInfo[] nodes(int count) {
        NodeInfo[] out = new NodeInfo[count];
        for (int i = 0; i < count; i++) {
            out[i] = named(String.format("n%05d", i));
        }
        return out;
    }

    @Test
    void keepsTheOrderAcrossChunks() {
        for (int count : new int[] {0, 1, NodeOrder.CHUNK - 1, NodeOrder.CHUNK, NodeOrder.CHUNK + 1, 3 * NodeOrder.CHUNK + 7}) {
            NodeInfo[] nodes = nodes(count);
            NodeOrder order = NodeOrder.of(nodes);
            assertEquals(List.of(nodes), order.asList(), count + " nodes");
            assertEquals(count, order.asList().size());
            assertTrue(order.asList() instanceof RandomAccess, "searched by index");
            assertThrows(IndexOutOfBoundsException.class, () -> order.asList().get(count));
            assertThrows(UnsupportedOperationException.class, () -> order.asList().set(0, named("x")));
        }
    }

    @Test
    void aNewVersionLeavesTheOldOneAsItWas() {
        NodeInfo[] nodes = nodes(2 * NodeOrder.CHUNK + 5);
        NodeOrder v1 = NodeOrder.of(nodes);
        List<NodeInfo> before = new ArrayList<>(v1.asList());
        NodeInfo a = named("a");
        NodeInfo b = named("b");
        NodeInfo c = named("c");
        NodeOrder.Editor edit = v1.edit();
        edit.set(3, a);
        edit.set(4, b);
        edit.set(2 * NodeOrder.CHUNK + 4, c);
        NodeOrder v2 = edit.done();

        assertEquals(before, v1.asList(), "the earlier snapshot's nodes");
        List<NodeInfo> expected = new ArrayList<>(before);
        expected.set(3, a);
        expected.set(4, b);
        expected.set(2 * NodeOrder.CHUNK + 4, c);
        assertEquals(expected, v2.asList());
        assertSame(v2, v2.edit().done(), "no replacement, no new version");
    }
}
