package io.colocation.scheduler.explain;

import io.colocation.api.InvalidInputException;
import io.colocation.api.Quantities;
import io.colocation.model.document.KubeDocuments;
import io.colocation.model.pod.PodClassifier;
import io.colocation.model.pod.PodRequests;
import io.colocation.model.slo.NodeMetric;
import io.colocation.scheduler.framework.ClusterSnapshot;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.plugins.loadaware.NodeMetricView;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.InputStream;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a scheduling snapshot from documents: Nodes (in input order), Pods (with {@code spec.nodeName}: assigned;
 * without: pending), NodeMetrics by node name; PodGroups and other kinds are skipped.
 */
final class SchedulingInput {
    record Result(ClusterSnapshot snapshot, PodInfo pending, List<String> notes) {
    }

    private SchedulingInput() {
    }

    static Result read(List<String> files, String podName, Instant now, InputStream stdin) throws InvalidInputException {
        List<KubeDocuments.Sourced> nodes = new ArrayList<>();
        List<KubeDocuments.Sourced> pods = new ArrayList<>();
        Map<String, KubeDocuments.Sourced> metrics = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        for (String file : files) {
            for (KubeDocuments.Sourced doc : KubeDocuments.read(file, stdin)) {
                String kind = doc.kind();
                if (List.of("Node", "Pod", "NodeMetric").contains(kind) && doc.object().path("metadata").path("name").asText("").isEmpty()) {
                    throw new InvalidInputException(doc.file() + ": a " + kind + " without metadata.name");
                }
                switch (kind) {
                    case "Node" -> nodes.add(doc);
                    case "Pod" -> pods.add(doc);
                    case "NodeMetric" -> {
                        if (metrics.put(doc.name(), doc) != null) {
                            throw new InvalidInputException(doc.file() + ": NodeMetric " + doc.name() + " is given twice");
                        }
                    }
                    case "PodGroup" -> notes.add("PodGroup " + doc.name() + ": gangs are decided at Permit, which explain does not"
                            + " show; the member is explained on its own");
                    default -> {
                        // other kinds are not the scheduler's input
                    }
                }
            }
        }
        if (nodes.isEmpty()) {
            throw new InvalidInputException("no Node in the input (" + String.join(", ", files) + ")");
        }
        List<PodInfo> assigned = new ArrayList<>();
        Map<String, String> assignedTo = new LinkedHashMap<>();
        List<KubeDocuments.Sourced> pendingDocs = new ArrayList<>();
        for (KubeDocuments.Sourced doc : pods) {
            Pod pod = doc.as(Pod.class);
            String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            String phase = pod.getStatus() == null ? "" : String.valueOf(pod.getStatus().getPhase());
            if (node != null && !node.isEmpty()) {
                if (!phase.equals("Succeeded") && !phase.equals("Failed")) {
                    assigned.add(podInfo(pod, doc, now));
                    assignedTo.put(key(pod), node);
                }
            } else if (podName == null || podName.equals(key(pod))) {
                pendingDocs.add(doc);
            }
        }
        if (podName != null && pendingDocs.isEmpty()) {
            throw new InvalidInputException("no pending Pod " + podName + " (a Pod without spec.nodeName) in the input");
        }
        if (pendingDocs.isEmpty()) {
            throw new InvalidInputException("no pending Pod (a Pod without spec.nodeName) in the input");
        }
        if (pendingDocs.size() > 1) {
            throw new InvalidInputException("the input has " + pendingDocs.size() + " pending Pods ("
                    + pendingDocs.stream().map(KubeDocuments.Sourced::name).toList() + "): choose one with --pod NAMESPACE/NAME");
        }
        PodInfo pending = podInfo(pendingDocs.get(0).as(Pod.class), pendingDocs.get(0), now);

        List<NodeInfo> infos = new ArrayList<>();
        for (KubeDocuments.Sourced doc : nodes) {
            Node node = doc.as(Node.class);
            String where = doc.file() + ": Node " + doc.name() + ": status.allocatable";
            Map<String, Long> allocatable = new TreeMap<>();
            Map<String, Quantity> alloc = node.getStatus() == null || node.getStatus().getAllocatable() == null ? Map.of()
                    : node.getStatus().getAllocatable();
            for (Map.Entry<String, Quantity> e : alloc.entrySet()) {
                String at = where + "." + e.getKey();
                allocatable.put(e.getKey(), e.getKey().equals("cpu") ? Quantities.milliValue(String.valueOf(e.getValue()), at)
                        : Quantities.value(String.valueOf(e.getValue()), at));
            }
            List<PodInfo> mine = assigned.stream().filter(p -> doc.name().equals(assignedTo.get(p.key()))).toList();
            Map<String, Long> requested = new TreeMap<>();
            mine.forEach(p -> p.requests().forEach((r, v) -> requested.merge(r, v, Long::sum)));
            NodeMetric metric = null;
            KubeDocuments.Sourced metricDoc = metrics.get(doc.name());
            if (metricDoc != null) {
                metric = metricDoc.as(NodeMetric.class);
                NodeMetricView.of(metric, metricDoc.file() + ": NodeMetric " + metricDoc.name() + ": ");
            }
            infos.add(new NodeInfo(node, allocatable, mine, requested, metric));
        }
        return new Result(new ClusterSnapshot(infos, now), pending, notes);
    }

    private static String key(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        return (ns == null || ns.isEmpty() ? "default" : ns) + "/" + pod.getMetadata().getName();
    }

    private static PodInfo podInfo(Pod pod, KubeDocuments.Sourced doc, Instant now) throws InvalidInputException {
        String where = doc.file() + ": Pod " + doc.name() + ": ";
        Instant scheduled = conditionTime(pod, "PodScheduled", where);
        return new PodInfo(pod, key(pod), PodClassifier.priorityClass(pod), PodRequests.requests(pod, where),
                PodRequests.limits(pod, where), scheduled == null ? now : scheduled, conditionTime(pod, "Initialized", where));
    }

    /** The lastTransitionTime of a True condition of that type; null without one. */
    private static Instant conditionTime(Pod pod, String type, String where) throws InvalidInputException {
        List<PodCondition> conditions = pod.getStatus() == null || pod.getStatus().getConditions() == null ? List.of()
                : pod.getStatus().getConditions();
        for (int i = 0; i < conditions.size(); i++) {
            PodCondition c = conditions.get(i);
            if (type.equals(c.getType()) && "True".equals(c.getStatus()) && c.getLastTransitionTime() != null) {
                try {
                    return OffsetDateTime.parse(c.getLastTransitionTime()).toInstant();
                } catch (DateTimeParseException e) {
                    throw new InvalidInputException(where + "status.conditions[" + i + "].lastTransitionTime: not an RFC 3339 time: "
                            + c.getLastTransitionTime());
                }
            }
        }
        return null;
    }
}
