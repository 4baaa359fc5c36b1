package io.colocation.broker.calculation;

import io.colocation.api.InvalidInputException;
import io.colocation.api.ResourceNames;
import io.colocation.model.Resources;
import io.colocation.model.pod.PodPhases;
import io.colocation.model.pod.PodRequests;
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
 * The broker's pass reads a node's own objects again only when one of its inputs changed: the Node, a pod
 * on it, its NodeMetric, the colocation config, or whether the NodeMetric has gone stale since (the only way
 * time enters the calculation). Otherwise the last {@link NodeCalculation.Outcome} stands. Reading quantities
 * and classifying pods is most of a pass; this keeps a pass over thousands of quiet nodes cheap.
 */
public final class NodeCalculationMemo {
    /** What the outcome was computed from; resource versions change with every write of an object. */
    private record Inputs(String nodeVersion, List<String> podVersions, String metricVersion, ColocationConfig config) {
    }

    private record Entry(Inputs inputs, boolean stale, Facts facts) {
    }

    /**
     * What a pass needs of a node's own objects: the calculation, the batch requests of its pods (what
     * Kubernetes uses of Batch there, with a note per pod whose request cannot be read), and the Batch and Mid
     * its status holds now (null when absent or unreadable, with a note).
     */
    public record Facts(NodeCalculation.Outcome outcome, Resources batchUsed, Resources publishedBatch, Resources publishedMid,
            List<String> notes) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /**
     * @param metricVersion the NodeMetric's resourceVersion, null when there is none (part of what {@code metric} says)
     */
    public Facts calculate(ColocationConfig config, Node node, List<Pod> pods, NodeCalculation.Metric metric,
            String metricVersion, Instant now) {
        String name = node.getMetadata().getName();
        List<String> podVersions = new ArrayList<>(pods.size());
        for (Pod pod : pods) {
            podVersions.add(pod.getMetadata().getUid() + "@" + pod.getMetadata().getResourceVersion());
        }
        Inputs inputs = new Inputs(node.getMetadata().getResourceVersion(), podVersions, metricVersion, config);
        Entry cached = entries.get(name);
        if (cached != null && cached.inputs().equals(inputs) && inputs.nodeVersion() != null
                && cached.stale() == DegradeRules.isDegraded(metric.state(), cached.facts().outcome().strategy(), now)) {
            return cached.facts();
        }
        NodeCalculation.Outcome outcome = NodeCalculation.calculate(config, node, pods, metric, now);
        List<String> notes = new ArrayList<>();
        Resources batchUsed = batchUsed(pods, notes);
        Facts facts = new Facts(outcome, batchUsed, NodeStateReader.published(node, ResourceNames.BATCH_CPU, ResourceNames.BATCH_MEMORY, notes),
                NodeStateReader.published(node, ResourceNames.MID_CPU, ResourceNames.MID_MEMORY, notes), List.copyOf(notes));
        entries.put(name, new Entry(inputs, DegradeRules.isDegraded(metric.state(), outcome.strategy(), now), facts));
        return facts;
    }

    /** Batch requests of the pods bound to the node that have not ended. */
    private static Resources batchUsed(List<Pod> pods, List<String> notes) {
        Resources sum = Resources.ZERO;
        for (Pod pod : pods) {
            if (PodPhases.ended(pod)) {
                continue;
            }
            String key = "Pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
            try {
                sum = sum.plus(PodRequests.batch(pod, key + ": "));
            } catch (InvalidInputException e) {
                notes.add("not counted: " + e.getMessage());
            }
        }
        return sum;
    }

    /** Forgets nodes that are gone. */
    public void retain(Set<String> nodes) {
        entries.keySet().retainAll(nodes);
    }
}
