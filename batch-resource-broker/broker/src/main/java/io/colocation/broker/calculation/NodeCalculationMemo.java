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
import java.util.HashMap;
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
    /**
     * What the outcome was computed from; resource versions change with every write of an object. Pods are kept as uids
     * and versions side by side, not joined: an informer's unchanged pod keeps its strings, so comparing is mostly
     * identity.
     */
    private record Inputs(String nodeVersion, List<String> podUids, List<String> podVersions, String metricVersion,
            ColocationConfig config) {
    }

    private record Entry(Inputs inputs, boolean stale, Facts facts, Map<String, ReadPod> pods) {
    }

    /**
     * One pod as read at one resourceVersion: its state and the notes reading it gave, and its batch request (null with
     * why not when it cannot be read). Kept with the node's entry, so a recalculation parses only the pods that changed.
     */
    private record ReadPod(String version, PodState state, List<String> notes, Resources batch, String batchRefused) {
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
        List<String> podUids = new ArrayList<>(pods.size());
        List<String> podVersions = new ArrayList<>(pods.size());
        for (Pod pod : pods) {
            podUids.add(pod.getMetadata().getUid());
            podVersions.add(pod.getMetadata().getResourceVersion());
        }
        Inputs inputs = new Inputs(node.getMetadata().getResourceVersion(), podUids, podVersions, metricVersion, config);
        Entry cached = entries.get(name);
        if (cached != null && cached.inputs().equals(inputs) && inputs.nodeVersion() != null
                && cached.stale() == DegradeRules.isDegraded(metric.state(), cached.facts().outcome().strategy(), now)) {
            return cached.facts();
        }
        Map<String, ReadPod> known = cached == null ? Map.of() : cached.pods();
        Map<String, ReadPod> read = new HashMap<>();
        NodeCalculation.Outcome outcome = NodeCalculation.calculate(config, node, pods, metric, now, (pod, podNotes) -> {
            ReadPod r = readPod(pod, known, read);
            podNotes.addAll(r.notes());
            return r.state();
        });
        List<String> notes = new ArrayList<>();
        Resources batchUsed = batchUsed(pods, known, read, notes);
        Facts facts = new Facts(outcome, batchUsed, NodeStateReader.published(node, ResourceNames.BATCH_CPU, ResourceNames.BATCH_MEMORY, notes),
                NodeStateReader.published(node, ResourceNames.MID_CPU, ResourceNames.MID_MEMORY, notes), List.copyOf(notes));
        entries.put(name, new Entry(inputs, DegradeRules.isDegraded(metric.state(), outcome.strategy(), now), facts, Map.copyOf(read)));
        return facts;
    }

    /**
     * The pod as read at its resourceVersion: from the node's last calculation when it has not changed since, else read
     * now ({@link NodeStateReader#pod}, {@link PodRequests#batch}). A pod that cannot be read is read again each time
     * (its exception says why), as is one without a uid or resourceVersion.
     */
    private static ReadPod readPod(Pod pod, Map<String, ReadPod> known, Map<String, ReadPod> read) throws InvalidInputException {
        String uid = pod.getMetadata().getUid();
        String version = pod.getMetadata().getResourceVersion();
        ReadPod r = uid == null ? null : read.get(uid);
        if (r == null && uid != null) {
            r = known.get(uid);
        }
        if (r != null && version != null && version.equals(r.version())) {
            read.put(uid, r);
            return r;
        }
        List<String> notes = new ArrayList<>();
        PodState state = NodeStateReader.pod(pod, notes);
        Resources batch = null;
        String refused = null;
        try {
            batch = PodRequests.batch(pod, "Pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + ": ");
        } catch (InvalidInputException e) {
            refused = "not counted: " + e.getMessage();
        }
        ReadPod fresh = new ReadPod(version, state, List.copyOf(notes), batch, refused);
        if (uid != null && version != null) {
            read.put(uid, fresh);
        }
        return fresh;
    }

    /** Batch requests of the pods bound to the node that have not ended. */
    private static Resources batchUsed(List<Pod> pods, Map<String, ReadPod> known, Map<String, ReadPod> read, List<String> notes) {
        Resources sum = Resources.ZERO;
        for (Pod pod : pods) {
            if (PodPhases.ended(pod)) {
                continue;
            }
            ReadPod r;
            try {
                r = readPod(pod, known, read);
            } catch (InvalidInputException e) {
                // its state cannot be read: the calculation has refused the node already; its batch request alone is asked
                String key = "Pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
                try {
                    sum = sum.plus(PodRequests.batch(pod, key + ": "));
                } catch (InvalidInputException again) {
                    notes.add("not counted: " + again.getMessage());
                }
                continue;
            }
            if (r.batch() != null) {
                sum = sum.plus(r.batch());
            } else {
                notes.add(r.batchRefused());
            }
        }
        return sum;
    }

    /** Forgets nodes that are gone. */
    public void retain(Set<String> nodes) {
        entries.keySet().retainAll(nodes);
    }
}
