package io.colocation.scheduler.framework;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.RandomAccess;

/**
 * The cluster's nodes in name order as an immutable list that a new version shares with the old one except for the
 * chunks it changed. Each decision changes one node and takes a snapshot: copying a 10,000-node array for it was an
 * eighth of the scheduler's allocation at 10,000 nodes (JFR); replacing one node copies one chunk of {@value #CHUNK}
 * and the chunk table. Each chunk also keeps its nodes' resources side by side ({@link ResourceColumns}), rebuilt with
 * the chunk, so a search can judge a node's fit without reading the node.
 */
public final class NodeOrder {
    private static final int SHIFT = 6;
    public static final int CHUNK = 1 << SHIFT;
    public static final NodeOrder EMPTY = new NodeOrder(new NodeInfo[0][], new ResourceColumns[0], 0);

    private final NodeInfo[][] chunks;
    private final ResourceColumns[] columns;
    private final int size;
    private final List<NodeInfo> view = new View();
    /** Σ of the nodes' allocatable, by resource; computed once per version, from each chunk's own sum. */
    private volatile Map<String, Long> allocatableTotal;

    private NodeOrder(NodeInfo[][] chunks, ResourceColumns[] columns, int size) {
        this.chunks = chunks;
        this.columns = columns;
        this.size = size;
    }

    /** The nodes in this order (already sorted by the caller). */
    public static NodeOrder of(NodeInfo[] nodes) {
        NodeInfo[][] chunks = new NodeInfo[(nodes.length + CHUNK - 1) >>> SHIFT][];
        ResourceColumns[] columns = new ResourceColumns[chunks.length];
        for (int c = 0; c < chunks.length; c++) {
            int from = c << SHIFT;
            chunks[c] = Arrays.copyOfRange(nodes, from, Math.min(nodes.length, from + CHUNK));
            columns[c] = new ResourceColumns(chunks[c]);
        }
        return new NodeOrder(chunks, columns, nodes.length);
    }

    public static NodeOrder of(List<NodeInfo> nodes) {
        return of(nodes.toArray(new NodeInfo[0]));
    }

    /** The nodes as an unmodifiable list; this version never changes. */
    public List<NodeInfo> asList() {
        return view;
    }

    /**
     * The nodes' allocatable summed per resource name, every name any node lists (ElasticQuota's cluster total). Each
     * chunk keeps its own sum, so a version that changed one node adds up its chunks, not its nodes.
     */
    public Map<String, Long> allocatableTotal() {
        Map<String, Long> total = allocatableTotal;
        if (total == null) {
            Map<String, Long> sum = new TreeMap<>();
            for (ResourceColumns c : columns) {
                for (int k = 0; k < c.names.length; k++) {
                    sum.merge(c.names[k], c.allocatableSums[k], Long::sum);
                }
            }
            total = Collections.unmodifiableMap(sum);
            allocatableTotal = total;
        }
        return total;
    }

    /** The resource columns of the chunk that holds node {@code index}; its slot there is {@link #slot}. */
    public ResourceColumns columnsOf(int index) {
        return columns[index >>> SHIFT];
    }

    public static int slot(int index) {
        return index & (CHUNK - 1);
    }

    /** Replacements on a copy of this order; {@link Editor#done} gives the new version and leaves this one as it was. */
    public Editor edit() {
        return new Editor();
    }

    public final class Editor {
        private NodeInfo[][] next;
        private boolean[] copied;

        public void set(int index, NodeInfo node) {
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

        public NodeOrder done() {
            if (next == null) {
                return NodeOrder.this;
            }
            ResourceColumns[] cols = columns.clone();
            for (int c = 0; c < cols.length; c++) {
                if (copied[c]) {
                    cols[c] = new ResourceColumns(next[c]);
                }
            }
            return new NodeOrder(next, cols, size);
        }
    }

    /**
     * What {@code NodeResourcesFit} reads of up to {@value #CHUNK} nodes, in one array: per node, for each resource any
     * of them names, its allocatable (-1: not listed) and requested amounts, and its pod count. A search of a full
     * 10,000-node cluster rejects most nodes on their resources: read from here, a node costs a few sequential loads
     * instead of the node object and three arrays scattered in memory.
     */
    public static final class ResourceColumns {
        private final String[] names;
        private final long[] amounts;
        private final int[] podCounts;
        /** Per column, Σ of the allocatable of the nodes that list it. */
        private final long[] allocatableSums;

        ResourceColumns(NodeInfo[] nodes) {
            this.names = union(nodes);
            int stride = 2 * names.length;
            this.amounts = new long[nodes.length * stride];
            this.allocatableSums = new long[names.length];
            this.podCounts = new int[nodes.length];
            for (int s = 0; s < nodes.length; s++) {
                NodeInfo n = nodes[s];
                String[] own = n.resourceNames();
                for (int k = 0, i = 0; k < names.length; k++) {
                    boolean listed = i < own.length && own[i] == names[k]; // both interned, in name order
                    amounts[s * stride + 2 * k] = listed ? n.allocatableAt(i) : -1;
                    amounts[s * stride + 2 * k + 1] = listed ? n.requestedAt(i) : 0;
                    if (listed) {
                        allocatableSums[k] += n.allocatableAt(i);
                        i++;
                    }
                }
                podCounts[s] = n.podCount();
            }
        }

        /** The names of every node's resources, in name order: mostly every node names the same ones. */
        private static String[] union(NodeInfo[] nodes) {
            String[] union = nodes.length == 0 ? new String[0] : nodes[0].resourceNames();
            for (NodeInfo n : nodes) {
                String[] own = n.resourceNames();
                if (own != union && !Arrays.equals(own, union)) {
                    union = merged(union, own);
                }
            }
            return union;
        }

        /** Two sorted arrays of interned names as one, each name once. */
        private static String[] merged(String[] a, String[] b) {
            String[] out = new String[a.length + b.length];
            int i = 0;
            int j = 0;
            int n = 0;
            while (i < a.length || j < b.length) {
                int c = i == a.length ? 1 : j == b.length ? -1 : a[i].compareTo(b[j]);
                out[n++] = c <= 0 ? a[i] : b[j];
                i += c <= 0 ? 1 : 0;
                j += c >= 0 ? 1 : 0;
            }
            return Arrays.copyOf(out, n);
        }

        /** Where {@code resource} is among these columns; -1 when none of the chunk's nodes names it. */
        public int column(String resource) {
            return NodeInfo.indexOf(names, resource);
        }

        /** As {@link NodeInfo#allocatable(String, long)}: the allocatable of the column's resource, {@code absent} when not listed. */
        public long allocatable(int slot, int column, long absent) {
            if (column < 0) {
                return absent;
            }
            long a = amounts[slot * 2 * names.length + 2 * column];
            return a < 0 ? absent : a;
        }

        /** As {@link NodeInfo#requested(String)}. */
        public long requested(int slot, int column) {
            return column < 0 ? 0 : amounts[slot * 2 * names.length + 2 * column + 1];
        }

        /** As {@link NodeInfo#podCount()}. */
        public int podCount(int slot) {
            return podCounts[slot];
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
