package io.colocation.scheduler.framework;

import io.colocation.model.slo.NodeMetric;
import io.fabric8.kubernetes.api.model.Node;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A node with the pods assigned to it and its NodeMetric (null when it has none or when it cannot be read: then
 * {@link #nodeMetricError()} says why). Immutable: the running scheduler
 * builds a new one when the node, its pods or its metric change and reuses it otherwise, so what a plugin derives
 * from it alone (a parsed NodeMetric, the load of its pods) is computed once per version, not once per pod.
 */
public final class NodeInfo {
    private final Node node;
    private final Map<String, Long> allocatable;
    private final List<PodInfo> pods;
    private final Map<String, Long> requested;
    private final NodeMetric nodeMetric;
    private final String nodeMetricError;
    private final Map<Object, Object> derived = new ConcurrentHashMap<>();

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
        this.node = node;
        this.allocatable = allocatable;
        this.pods = pods;
        this.requested = requested;
        this.nodeMetric = nodeMetric;
        this.nodeMetricError = nodeMetricError;
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
     * What a plugin derives from this node alone, computed on first use; {@code key} names the plugin instance and
     * the value (values that depend on the pod being placed or on the time do not belong here).
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(Object key, Supplier<T> compute) {
        Object v = derived.get(key);
        if (v == null) {
            v = compute.get();
            derived.putIfAbsent(key, v);
        }
        return (T) v;
    }

    @Override
    public String toString() {
        return "NodeInfo[" + name() + ", " + pods.size() + " pods]";
    }
}
