package io.colocation.broker.kube;

import io.colocation.broker.calculation.MetricFreshness;
import io.colocation.model.config.ColocationConfig;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The broker's pass decides a node's calculation again only when one of its inputs changed: the Node, a pod
 * on it, its NodeMetric, the colocation config, or whether the NodeMetric has gone stale since (the only way
 * time enters the calculation). Otherwise the last {@link NodeCalculation.Outcome} stands. Reading quantities
 * and classifying pods is most of a pass; this keeps a pass over thousands of quiet nodes cheap.
 */
public final class NodeCalculationMemo {
    /** What the outcome was computed from; resource versions change with every write of an object. */
    private record Inputs(String nodeVersion, List<String> podVersions, String metricVersion, ColocationConfig config) {
    }

    private record Entry(Inputs inputs, boolean stale, NodeCalculation.Outcome outcome) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /**
     * @param metricVersion the NodeMetric's resourceVersion, null when there is none (part of what {@code metric} says)
     */
    public NodeCalculation.Outcome calculate(ColocationConfig config, Node node, List<Pod> pods, NodeCalculation.Metric metric,
            String metricVersion, Instant now) {
        String name = node.getMetadata().getName();
        List<String> podVersions = new ArrayList<>(pods.size());
        for (Pod pod : pods) {
            podVersions.add(pod.getMetadata().getUid() + "@" + pod.getMetadata().getResourceVersion());
        }
        Inputs inputs = new Inputs(node.getMetadata().getResourceVersion(), podVersions, metricVersion, config);
        Entry cached = entries.get(name);
        if (cached != null && cached.inputs().equals(inputs) && inputs.nodeVersion() != null
                && cached.stale() == MetricFreshness.isDegraded(metric.state(), cached.outcome().strategy(), now)) {
            return cached.outcome();
        }
        NodeCalculation.Outcome outcome = NodeCalculation.calculate(config, node, pods, metric, now);
        entries.put(name, new Entry(inputs, MetricFreshness.isDegraded(metric.state(), outcome.strategy(), now), outcome));
        return outcome;
    }

    /** Forgets nodes that are gone. */
    public void retain(Set<String> nodes) {
        entries.keySet().retainAll(nodes);
    }
}
