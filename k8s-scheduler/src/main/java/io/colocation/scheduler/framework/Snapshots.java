package io.colocation.scheduler.framework;

import io.colocation.api.InvalidInputException;
import io.colocation.api.Quantities;
import io.colocation.model.KubeTime;
import io.colocation.model.pod.PodClassifier;
import io.colocation.model.pod.PodRequests;
import io.colocation.model.slo.NodeMetric;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads Kubernetes objects into the framework's {@link PodInfo} and {@link NodeInfo}; explain and the service use it. */
public final class Snapshots {
    private Snapshots() {
    }

    /** {@code namespace/name}, the default namespace when none. */
    public static String key(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        return (ns == null || ns.isEmpty() ? "default" : ns) + "/" + pod.getMetadata().getName();
    }

    /** @param now the placement time of a pod with no PodScheduled condition (one placed just now) */
    public static PodInfo pod(Pod pod, Instant now, String where) throws InvalidInputException {
        if (pod.getSpec() == null) {
            throw new InvalidInputException(where + "spec: missing (a Pod has one)");
        }
        Instant scheduled = conditionTime(pod, "PodScheduled", where);
        return new PodInfo(pod, key(pod), PodClassifier.priorityClass(pod), hashedInOrder(PodRequests.requests(pod, where)),
                hashedInOrder(PodRequests.limits(pod, where)), scheduled == null ? now : scheduled, conditionTime(pod, "Initialized", where));
    }

    /** The node with its assigned pods (their requests summed) and its NodeMetric (null: none). */
    public static NodeInfo node(Node node, List<PodInfo> pods, NodeMetric metric, String where) throws InvalidInputException {
        return node(node, pods, metric, null, where);
    }

    /** As above, with why the node's NodeMetric cannot be read ({@code metric} null then). */
    public static NodeInfo node(Node node, List<PodInfo> pods, NodeMetric metric, String metricError, String where)
            throws InvalidInputException {
        return node(node, pods, metric, metricError, where, null);
    }

    /**
     * As above, replacing {@code previous} (null: none), the node's version before a change: what did not change (the
     * Node object's allocatable, what plugins derived from an unchanged NodeMetric) is kept, not worked out again.
     */
    public static NodeInfo node(Node node, List<PodInfo> pods, NodeMetric metric, String metricError, String where,
            NodeInfo previous) throws InvalidInputException {
        Map<String, Long> requested = new TreeMap<>();
        pods.forEach(p -> p.requests().forEach((r, v) -> requested.merge(r, v, Long::sum)));
        Map<String, Long> allocatable = previous != null && previous.node() == node ? previous.allocatable() : allocatable(node, where);
        return new NodeInfo(node, allocatable, pods, hashedInOrder(requested), metric, metricError, previous);
    }

    private static Map<String, Long> allocatable(Node node, String where) throws InvalidInputException {
        Map<String, Long> allocatable = new TreeMap<>();
        Map<String, Quantity> alloc = node.getStatus() == null || node.getStatus().getAllocatable() == null ? Map.of()
                : node.getStatus().getAllocatable();
        for (Map.Entry<String, Quantity> e : alloc.entrySet()) {
            String at = where + "status.allocatable." + e.getKey();
            allocatable.put(e.getKey(), e.getKey().equals("cpu") ? Quantities.milliValue(String.valueOf(e.getValue()), at)
                    : Quantities.value(String.valueOf(e.getValue()), at));
        }
        return hashedInOrder(allocatable);
    }

    /**
     * The map in its key order with hashed lookups: filters and scores look resources up on every node of every
     * cycle, where a TreeMap's string comparisons cost more than the hash a String keeps. The resource names are
     * interned, so a pod's name and a node's match by identity, without reading either's characters.
     */
    public static Map<String, Long> hashedInOrder(Map<String, Long> sorted) {
        Map<String, Long> out = new LinkedHashMap<>(Math.max(4, sorted.size() * 2));
        sorted.forEach((r, v) -> out.put(r.intern(), v));
        return out;
    }

    /** The lastTransitionTime of a True condition of that type; null without one. */
    private static Instant conditionTime(Pod pod, String type, String where) throws InvalidInputException {
        List<PodCondition> conditions = pod.getStatus() == null || pod.getStatus().getConditions() == null ? List.of()
                : pod.getStatus().getConditions();
        for (int i = 0; i < conditions.size(); i++) {
            PodCondition c = conditions.get(i);
            if (type.equals(c.getType()) && "True".equals(c.getStatus()) && c.getLastTransitionTime() != null) {
                return KubeTime.parse(c.getLastTransitionTime(), where + "status.conditions[" + i + "].lastTransitionTime");
            }
        }
        return null;
    }
}
