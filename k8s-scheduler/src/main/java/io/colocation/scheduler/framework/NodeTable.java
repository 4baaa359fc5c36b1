package io.colocation.scheduler.framework;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A scheduler cache's nodes, by name and in name order: the nodes that changed are rebuilt and replaced in a new
 * {@link NodeOrder} that shares every other chunk with the last one; only a node that came or went makes the whole
 * order again. Not thread-safe: its owner guards it.
 */
public final class NodeTable {
    /** A node's new version from its last one (null: none); null when the node is gone or cannot be read. */
    @FunctionalInterface
    public interface Builder {
        NodeInfo build(String name, NodeInfo was);
    }

    private final TreeMap<String, NodeInfo> infos = new TreeMap<>();
    /** Each node's place in {@link #order}. */
    private final Map<String, Integer> position = new HashMap<>();
    private NodeOrder order = NodeOrder.EMPTY;

    /** Rebuilds the {@code changed} nodes; returns the order with them. */
    public NodeOrder rebuild(Collection<String> changed, Builder builder) {
        if (changed.isEmpty()) {
            return order;
        }
        NodeOrder.Editor next = order.edit();
        boolean sameNodes = true;
        for (String name : changed) {
            NodeInfo was = infos.get(name);
            NodeInfo rebuilt = builder.build(name, was);
            if (rebuilt == null) {
                infos.remove(name);
                sameNodes &= was == null;
                continue;
            }
            infos.put(name, rebuilt);
            Integer at = position.get(name);
            if (at != null) {
                next.set(at, rebuilt);
            } else {
                sameNodes = false;
            }
        }
        if (sameNodes) {
            order = next.done();
        } else {
            order = NodeOrder.of(infos.values().toArray(new NodeInfo[0]));
            position.clear();
            List<NodeInfo> nodes = order.asList();
            for (int i = 0; i < nodes.size(); i++) {
                position.put(nodes.get(i).name(), i);
            }
        }
        return order;
    }

    /** The node as last rebuilt; null when it is not in the table. */
    public NodeInfo get(String name) {
        return infos.get(name);
    }
}
