package io.colocation.scheduler.service;

import io.colocation.scheduler.framework.NodeInfo;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * The cluster's nodes in name order as an immutable list that a new version shares with the old one except for the
 * chunks it changed. Each decision changes one node and takes a snapshot: copying a 10,000-node array for it was an
 * eighth of the scheduler's allocation at 10,000 nodes (JFR); replacing one node copies one chunk of {@value #CHUNK}
 * and the chunk table.
 */
final class NodeOrder {
    private static final int SHIFT = 6;
    static final int CHUNK = 1 << SHIFT;
    static final NodeOrder EMPTY = new NodeOrder(new NodeInfo[0][], 0);

    private final NodeInfo[][] chunks;
    private final int size;
    private final List<NodeInfo> view = new View();

    private NodeOrder(NodeInfo[][] chunks, int size) {
        this.chunks = chunks;
        this.size = size;
    }

    /** The nodes in this order (already sorted by the caller). */
    static NodeOrder of(NodeInfo[] nodes) {
        NodeInfo[][] chunks = new NodeInfo[(nodes.length + CHUNK - 1) >>> SHIFT][];
        for (int c = 0; c < chunks.length; c++) {
            int from = c << SHIFT;
            chunks[c] = Arrays.copyOfRange(nodes, from, Math.min(nodes.length, from + CHUNK));
        }
        return new NodeOrder(chunks, nodes.length);
    }

    /** The nodes as an unmodifiable list; this version never changes. */
    List<NodeInfo> asList() {
        return view;
    }

    /** Replacements on a copy of this order; {@link #done} gives the new version and leaves this one as it was. */
    Editor edit() {
        return new Editor();
    }

    final class Editor {
        private NodeInfo[][] next;
        private boolean[] copied;

        void set(int index, NodeInfo node) {
            if (next == null) {
                next = chunks.clone();
                copied = new boolean[chunks.length];
            }
            int c = index >>> SHIFT;
            if (!copied[c]) {
                next[c] = next[c].clone();
                copied[c] = true;
            }
            next[c][index & (CHUNK - 1)] = node;
        }

        NodeOrder done() {
            return next == null ? NodeOrder.this : new NodeOrder(next, size);
        }
    }

    private final class View extends AbstractList<NodeInfo> implements RandomAccess {
        @Override
        public NodeInfo get(int index) {
            if (index < 0 || index >= size) {
                throw new IndexOutOfBoundsException("node " + index + " of " + size);
            }
            return chunks[index >>> SHIFT][index & (CHUNK - 1)];
        }

        @Override
        public int size() {
            return size;
        }
    }
}
