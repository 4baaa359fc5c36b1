package io.colocation.scheduler.framework;

import io.colocation.model.slo.NodeMetric;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A node with the pods assigned to it and its NodeMetric (null when it has none or when it cannot be read: then
 * {@link #nodeMetricError()} says why). Immutable: the running scheduler
 * builds a new one when the node, its pods or its metric change and reuses it otherwise, so what a plugin derives
 * from it alone (the load of its pods) is computed once per version, not once per pod, and what it derives from the
 * NodeMetric alone (the parsed metric) once per NodeMetric.
 */
public final class NodeInfo {
    private final Node node;
    private final Map<String, Long> allocatable;
    private final List<PodInfo> pods;
    private final Map<String, Long> requested;
    private final NodeMetric nodeMetric;
    private final String nodeMetricError;
    /**
     * What every filter reads of every node a search visits, kept in the node's own arrays: the resources named in the
     * allocatable or the requests (interned, so found by identity), their allocatable (-1: not in it) and requested
     * amounts, the pod count and the taints. Reading these through the maps and the Node object touched a dozen
     * places in memory per node, the larger part of a 5,000-node search.
     */
    private final String[] resources;
    private final long[] allocatableAmounts;
    private final long[] requestedAmounts;
    private final int podCount;
    private final List<Taint> taints;
    /** The first value derived and its key (null until one is); every other in {@link #derived}. */
    private Object firstValue;
    private volatile Object firstKey;
    private final Slots derived = new Slots();
    /** Shared by the versions of the node that have the same NodeMetric. */
    private final Slots metricDerived;

    /**
     * @param allocatable {@code status.allocatable}: cpu in milli-cores, others as integer values
     * @param requested   the sum of the assigned pods' effective requests, same units
     */
    public NodeInfo(Node node, Map<String, Long> allocatable, List<PodInfo> pods, Map<String, Long> requested,
            NodeMetric nodeMetric) {
        this(node, allocatable, pods, requested, nodeMetric, null);
    }

    /** @param nodeMetricError why the node's NodeMetric cannot be read (then {@code nodeMetric} is null); null when it can */
    public NodeInfo(Node node, Map<String, Long> allocatable, List<PodInfo> pods, Map<String, Long> requested,
            NodeMetric nodeMetric, String nodeMetricError) {
        this(node, allocatable, pods, requested, nodeMetric, nodeMetricError, null);
    }

    /**
     * @param previous the node's version this one replaces (null: none); what plugins derived from its NodeMetric
     *                 alone is kept when the NodeMetric is the same object
     */
    NodeInfo(Node node, Map<String, Long> allocatable, List<PodInfo> pods, Map<String, Long> requested,
            NodeMetric nodeMetric, String nodeMetricError, NodeInfo previous) {
        this.metricDerived = previous != null && previous.nodeMetric == nodeMetric
                && java.util.Objects.equals(previous.nodeMetricError, nodeMetricError) ? previous.metricDerived : new Slots();
        this.node = node;
        this.allocatable = allocatable;
        this.pods = pods;
        this.requested = requested;
        this.nodeMetric = nodeMetric;
        this.nodeMetricError = nodeMetricError;
        // A node's next version mostly names the same resources: its interned names are kept, not sorted and interned again.
        this.resources = previous != null && namesSame(previous.resources, allocatable, requested) ? previous.resources
                : names(allocatable, requested);
        this.allocatableAmounts = new long[resources.length];
        this.requestedAmounts = new long[resources.length];
        for (int i = 0; i < resources.length; i++) {
            allocatableAmounts[i] = allocatable.getOrDefault(resources[i], -1L);
            requestedAmounts[i] = requested.getOrDefault(resources[i], 0L);
        }
        this.podCount = pods.size();
        List<Taint> t = node.getSpec() == null ? null : node.getSpec().getTaints();
        this.taints = t == null || t.isEmpty() ? List.of() : t;
    }

    /** The resources the two maps name, interned, in name order. */
    private static String[] names(Map<String, Long> allocatable, Map<String, Long> requested) {
        java.util.TreeSet<String> names = new java.util.TreeSet<>(allocatable.keySet());
        names.addAll(requested.keySet());
        String[] out = new String[names.size()];
        int i = 0;
        for (String r : names) {
            out[i++] = r.intern();
        }
        return out;
    }

    /** Whether the two maps name exactly {@code names}. */
    private static boolean namesSame(String[] names, Map<String, Long> allocatable, Map<String, Long> requested) {
        int union = allocatable.size();
        for (String r : requested.keySet()) {
            if (!allocatable.containsKey(r)) {
                union++;
            }
        }
        if (union != names.length) {
            return false;
        }
        for (String r : names) {
            if (!allocatable.containsKey(r) && !requested.containsKey(r)) {
                return false;
            }
        }
        return true;
    }

    /** {@code status.allocatable} of {@code resource}; {@code absent} when the node does not list it. */
    public long allocatable(String resource, long absent) {
        int i = indexOf(resource);
        return i < 0 || allocatableAmounts[i] < 0 ? absent : allocatableAmounts[i];
    }

    /** What the assigned pods request of {@code resource}, 0 when none. */
    public long requested(String resource) {
        int i = indexOf(resource);
        return i < 0 ? 0 : requestedAmounts[i];
    }

    /** How many pods are assigned. */
    public int podCount() {
        return podCount;
    }

    /** {@code spec.taints}; empty when none. */
    public List<Taint> taints() {
        return taints;
    }

    /** The resources named in the allocatable or the requests, interned, in name order (read, not changed, by {@link NodeOrder}). */
    String[] resourceNames() {
        return resources;
    }

    /** The allocatable amount of {@code resourceNames()[i]}, -1 when the allocatable does not list it. */
    long allocatableAt(int i) {
        return allocatableAmounts[i];
    }

    /** What the assigned pods request of {@code resourceNames()[i]}. */
    long requestedAt(int i) {
        return requestedAmounts[i];
    }

    private int indexOf(String resource) {
        return indexOf(resources, resource);
    }

    /** Where {@code name} is among interned {@code names}: by identity, else (a name not interned) by its characters; -1: absent. */
    static int indexOf(String[] names, String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i] == name) {
                return i;
            }
        }
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    public Node node() {
        return node;
    }

    public Map<String, Long> allocatable() {
        return allocatable;
    }

    public List<PodInfo> pods() {
        return pods;
    }

    public Map<String, Long> requested() {
        return requested;
    }

    public NodeMetric nodeMetric() {
        return nodeMetric;
    }

    /** Why the node's NodeMetric exists but cannot be read; null when it can (or there is none). */
    public String nodeMetricError() {
        return nodeMetricError;
    }

    public String name() {
        return node.getMetadata().getName();
    }

    public Map<String, String> annotations() {
        return node.getMetadata().getAnnotations() == null ? Map.of() : node.getMetadata().getAnnotations();
    }

    /**
     * What a plugin derives from this version of the node alone, computed on first use; {@code key} names the plugin
     * instance and the value, compared by identity (values that depend on the pod being placed or on the time do not
     * belong here).
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(Object key, Supplier<T> compute) {
        // The first value derived is kept in this object's own fields: a search reads it on hundreds of nodes a pod,
        // and each object between the node and the value is a memory load the search waits for.
        if (firstKey == key) {
            return (T) firstValue; // the volatile read of firstKey makes the value written before it visible
        }
        Slots others = derived;
        T known = others.find(key);
        if (known != null) {
            return known;
        }
        T value = compute.get();
        synchronized (this) {
            if (firstKey == null) {
                firstValue = value;
                firstKey = key;
                return value;
            }
            if (firstKey == key) {
                return (T) firstValue;
            }
        }
        return others.get(key, () -> value);
    }

    /**
     * What a plugin derives from the node's NodeMetric alone (a parsed metric), computed once per NodeMetric: versions
     * of the node made by a pod assumed or bound keep it.
     */
    public <T> T derivedFromMetric(Object key, Supplier<T> compute) {
        return metricDerived.get(key, compute);
    }

    /**
     * Key, value, key, value…: a plugin has one or two keys, and a search reads them on hundreds of nodes a pod, where
     * a scan compared by identity costs one memory load less than a hash table, and no hashing. Copied on write.
     */
    private static final class Slots {
        private static final Object[] NONE = {};
        private volatile Object[] entries = NONE;

        /** The value kept for {@code key}; null when none. */
        @SuppressWarnings("unchecked")
        <T> T find(Object key) {
            Object[] d = entries;
            for (int i = 0; i < d.length; i += 2) {
                if (d[i] == key) {
                    return (T) d[i + 1];
                }
            }
            return null;
        }

        @SuppressWarnings("unchecked")
        <T> T get(Object key, Supplier<T> compute) {
            T known = find(key);
            if (known != null) {
                return known;
            }
            T value = compute.get();
            synchronized (this) {
                Object[] now = entries;
                for (int i = 0; i < now.length; i += 2) {
                    if (now[i] == key) {
                        return (T) now[i + 1]; // another thread computed it meanwhile: one value per key
                    }
                }
                Object[] next = java.util.Arrays.copyOf(now, now.length + 2);
                next[now.length] = key;
                next[now.length + 1] = value;
                entries = next;
            }
            return value;
        }
    }

    @Override
    public String toString() {
        return "NodeInfo[" + name() + ", " + pods.size() + " pods]";
    }
}
