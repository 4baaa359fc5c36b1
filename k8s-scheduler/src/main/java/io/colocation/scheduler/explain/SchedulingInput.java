package io.colocation.scheduler.explain;

import io.colocation.api.InvalidInputException;
import io.colocation.model.document.KubeDocuments;
import io.colocation.model.pod.PodPhases;
import io.colocation.model.slo.NodeMetric;
import io.colocation.scheduler.framework.ClusterSnapshot;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Snapshots;
import io.colocation.scheduler.plugins.loadaware.NodeMetricView;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a scheduling snapshot from documents: Nodes (in input order), Pods (with {@code spec.nodeName}: assigned;
 * without: pending), NodeMetrics by node name, PodGroups by namespace and name, ElasticQuotas; other kinds are skipped.
 */
final class SchedulingInput {
    /** @param pods every Pod of the input; {@code podGroups} by {@code namespace/name} */
    record Result(ClusterSnapshot snapshot, PodInfo pending, List<Pod> pods, Map<String, GenericKubernetesResource> podGroups,
            List<GenericKubernetesResource> elasticQuotas, List<String> notes) {
    }

    private SchedulingInput() {
    }

    static Result read(List<String> files, String podName, Instant now, InputStream stdin) throws InvalidInputException {
        List<KubeDocuments.Sourced> nodes = new ArrayList<>();
        List<KubeDocuments.Sourced> pods = new ArrayList<>();
        Map<String, KubeDocuments.Sourced> metrics = new LinkedHashMap<>();
        Map<String, GenericKubernetesResource> podGroups = new LinkedHashMap<>();
        List<GenericKubernetesResource> elasticQuotas = new ArrayList<>();
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
                    case "PodGroup" -> {
                        GenericKubernetesResource group = doc.as(GenericKubernetesResource.class);
                        String ns = group.getMetadata().getNamespace() == null ? "default" : group.getMetadata().getNamespace();
                        podGroups.put(ns + "/" + group.getMetadata().getName(), group);
                    }
                    case "ElasticQuota" -> {
                        GenericKubernetesResource quota = doc.as(GenericKubernetesResource.class);
                        if (quota.getMetadata().getNamespace() == null) {
                            quota.getMetadata().setNamespace("default");
                        }
                        elasticQuotas.add(quota);
                    }
                    default -> {
                        // other kinds are not the scheduler's input
                    }
                }
            }
        }
        if (nodes.isEmpty()) {
            throw new InvalidInputException("no Node in the input (" + String.join(", ", files) + ")");
        }
        // grouped by node once: explain stays linear in nodes + pods (a scan of every pod per node was 195 s at
        // 20,000 nodes × 60,000 pods)
        Map<String, List<PodInfo>> assigned = new java.util.HashMap<>();
        List<KubeDocuments.Sourced> pendingDocs = new ArrayList<>();
        List<Pod> pendingPods = new ArrayList<>();
        List<Pod> allPods = new ArrayList<>();
        for (KubeDocuments.Sourced doc : pods) {
            Pod pod = doc.as(Pod.class);
            if (pod.getMetadata().getNamespace() == null) {
                pod.getMetadata().setNamespace("default");
            }
            allPods.add(pod);
            String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            if (node != null && !node.isEmpty()) {
                if (!PodPhases.ended(pod)) {
                    assigned.computeIfAbsent(node, n -> new ArrayList<>()).add(Snapshots.pod(pod, now, where(doc)));
                }
            } else if (podName == null || podName.equals(Snapshots.key(pod))) {
                pendingDocs.add(doc);
                pendingPods.add(pod);
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
        PodInfo pending = Snapshots.pod(pendingPods.get(0), now, where(pendingDocs.get(0)));

        List<NodeInfo> infos = new ArrayList<>();
        for (KubeDocuments.Sourced doc : nodes) {
            Node node = doc.as(Node.class);
            List<PodInfo> mine = assigned.getOrDefault(doc.name(), List.of());
            NodeMetric metric = null;
            KubeDocuments.Sourced metricDoc = metrics.get(doc.name());
            if (metricDoc != null) {
                metric = metricDoc.as(NodeMetric.class);
                NodeMetricView.of(metric, metricDoc.file() + ": NodeMetric " + metricDoc.name() + ": ");
            }
            infos.add(Snapshots.node(node, mine, metric, doc.file() + ": Node " + doc.name() + ": "));
        }
        return new Result(new ClusterSnapshot(infos, now), pending, allPods, podGroups, elasticQuotas, notes);
    }

    private static String where(KubeDocuments.Sourced doc) {
        return doc.file() + ": Pod " + doc.name() + ": ";
    }
}
