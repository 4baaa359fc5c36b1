package io.colocation.koordlet.explain;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.api.Quantities;
import io.colocation.koordlet.qos.HostApplication;
import io.colocation.koordlet.qos.QoSNode;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.QoSPod;
import io.colocation.koordlet.qos.QoSPods;
import io.colocation.koordlet.qos.ResourceThresholds;
import io.colocation.model.document.KubeDocuments;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeSLO;
import io.colocation.model.slo.ResourceMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds one node's {@link NodeSnapshot} from documents as Koordinator's koordlet reads them: the Node, its Pods
 * (those with its {@code spec.nodeName}, or none), its NodeMetric's status as the current sample, its NodeSLO, and
 * an optional KoordletState. Other kinds are skipped.
 */
final class SnapshotReader {
    record Result(NodeSnapshot snapshot, List<String> notes) {
    }

    /** A usage sample; a null figure is one the NodeMetric does not have. */
    private record Sample(Long cpuMilli, Long memoryBytes) {
        static final Sample NONE = new Sample(null, null);
    }

    private SnapshotReader() {
    }

    static Result read(List<String> files, String nodeName, InputStream stdin) throws InvalidInputException {
        List<KubeDocuments.Sourced> nodes = new ArrayList<>();
        List<KubeDocuments.Sourced> pods = new ArrayList<>();
        List<KubeDocuments.Sourced> metrics = new ArrayList<>();
        List<KubeDocuments.Sourced> slos = new ArrayList<>();
        KubeDocuments.Sourced state = null;
        for (String file : files) {
            for (KubeDocuments.Sourced doc : KubeDocuments.read(file, stdin)) {
                String apiVersion = doc.object().path("apiVersion").asText("");
                switch (doc.kind()) {
                    case "Node" -> nodes.add(named(doc));
                    case "Pod" -> pods.add(named(doc));
                    case "NodeMetric" -> metrics.add(named(doc));
                    case "NodeSLO" -> slos.add(named(doc));
                    case KoordletState.KIND -> {
                        if (!apiVersion.equals(KoordletState.API_VERSION)) {
                            throw new InvalidInputException(doc.file() + ": KoordletState: apiVersion must be "
                                    + KoordletState.API_VERSION + ", found '" + apiVersion + "'");
                        }
                        if (state != null) {
                            throw new InvalidInputException(doc.file() + ": a second KoordletState (the first is in "
                                    + state.file() + ")");
                        }
                        state = doc;
                    }
                    default -> {
                        // other kinds (Services, ConfigMaps, ...) are not the koordlet's input
                    }
                }
            }
        }
        KubeDocuments.Sourced nodeDoc = pickNode(nodes, nodeName, files);
        List<String> notes = new ArrayList<>();
        String node = nodeDoc.name();
        QoSNode facts = QoSNode.of(nodeDoc.as(Node.class), nodeDoc.file() + ": Node " + node + ": ", notes);

        KubeDocuments.Sourced metricDoc = forNode(metrics, node, "NodeMetric", notes);
        NodeMetric.Status status = metricDoc == null ? null : metricDoc.as(NodeMetric.class).getStatus();
        String metricWhere = metricDoc == null ? "" : metricDoc.file() + ": NodeMetric " + metricDoc.name() + ": status.";
        Sample nodeUsage = Sample.NONE;
        Map<String, Sample> podUsage = new HashMap<>();
        Map<String, Sample> appUsage = new HashMap<>();
        if (status != null) {
            if (status.nodeMetric() != null && status.nodeMetric().nodeUsage() != null) {
                nodeUsage = usage(status.nodeMetric().nodeUsage(), metricWhere + "nodeMetric.nodeUsage.resources");
            }
            List<NodeMetric.PodMetricInfo> podsMetric = status.podsMetric() == null ? List.of() : status.podsMetric();
            for (int i = 0; i < podsMetric.size(); i++) {
                NodeMetric.PodMetricInfo m = podsMetric.get(i);
                String ns = m.namespace() == null || m.namespace().isEmpty() ? "default" : m.namespace();
                podUsage.put(ns + "/" + m.name(), usage(m.podUsage(), metricWhere + "podsMetric[" + i + "].podUsage.resources"));
            }
            List<NodeMetric.HostApplicationMetricInfo> apps = status.hostApplicationMetric() == null ? List.of()
                    : status.hostApplicationMetric();
            for (int i = 0; i < apps.size(); i++) {
                appUsage.put(apps.get(i).name(), usage(apps.get(i).usage(), metricWhere + "hostApplicationMetric[" + i + "].usage.resources"));
            }
        } else {
            notes.add(metricDoc == null ? "no NodeMetric for node " + node + ": no usage samples"
                    : "NodeMetric " + metricDoc.name() + " has no status: no usage samples");
        }

        List<QoSPod> podStates = new ArrayList<>();
        for (KubeDocuments.Sourced doc : pods) {
            Pod pod = doc.as(Pod.class);
            String on = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            if (on != null && !on.isEmpty() && !on.equals(node)) {
                continue;
            }
            String ns = pod.getMetadata().getNamespace() == null ? "default" : pod.getMetadata().getNamespace();
            Sample used = podUsage.getOrDefault(ns + "/" + pod.getMetadata().getName(), Sample.NONE);
            podStates.add(QoSPods.of(pod, used.cpuMilli(), used.memoryBytes(), doc.file() + ": Pod " + doc.name() + ": ", notes));
        }

        ResourceThresholds thresholds = null;
        List<HostApplication> hostApps = new ArrayList<>();
        KubeDocuments.Sourced sloDoc = forNode(slos, node, "NodeSLO", notes);
        if (sloDoc == null) {
            notes.add("no NodeSLO for node " + node + ": suppress and eviction wait for one");
        } else {
            String where = sloDoc.file() + ": NodeSLO " + sloDoc.name() + ": spec.";
            NodeSLO.Spec spec = sloDoc.as(NodeSLO.class).getSpec();
            thresholds = ResourceThresholds.of(spec == null ? null : spec.resourceUsedThresholdWithBE(),
                    where + "resourceUsedThresholdWithBE");
            JsonNode apps = spec == null ? null : spec.hostApplications();
            for (int i = 0; apps != null && i < apps.size(); i++) {
                JsonNode a = apps.get(i);
                String name = a.path("name").asText("");
                if (name.isEmpty()) {
                    throw new InvalidInputException(where + "hostApplications[" + i + "].name: missing");
                }
                Sample used = appUsage.getOrDefault(name, Sample.NONE);
                JsonNode base = a.path("cgroupPath").path("base");
                hostApps.add(new HostApplication(name, a.path("qos").asText(""), base.isMissingNode() ? null : base.asText(""),
                        used.cpuMilli(), used.memoryBytes()));
            }
        }
        KoordletState agent = state == null ? KoordletState.none()
                : KoordletState.read(state.object(), state.file() + ": KoordletState: ");
        return new Result(new NodeSnapshot(node, facts.capacityCpuMilli(), facts.capacityMemoryBytes(), facts.allocatable(),
                facts.reservedCpuMilli(), facts.reservedCpus(), facts.systemExclusiveCpus(), podStates, agent.yarnContainers(),
                nodeUsage.cpuMilli(), nodeUsage.memoryBytes(), hostApps, thresholds, agent.featureGates(), agent.cpuTopology(), agent.bestEffort(),
                agent.collectIntervalSeconds()), notes);
    }

    private static KubeDocuments.Sourced named(KubeDocuments.Sourced doc) throws InvalidInputException {
        if (doc.object().path("metadata").path("name").asText("").isEmpty()) {
            throw new InvalidInputException(doc.file() + ": a " + doc.kind() + " without metadata.name");
        }
        return doc;
    }

    private static KubeDocuments.Sourced pickNode(List<KubeDocuments.Sourced> nodes, String nodeName, List<String> files)
            throws InvalidInputException {
        if (nodeName != null) {
            return nodes.stream().filter(n -> n.name().equals(nodeName)).findFirst().orElseThrow(
                    () -> new InvalidInputException("no Node " + nodeName + " in the input (" + String.join(", ", files) + ")"));
        }
        if (nodes.isEmpty()) {
            throw new InvalidInputException("no Node in the input (" + String.join(", ", files) + ")");
        }
        if (nodes.size() > 1) {
            throw new InvalidInputException("the input has " + nodes.size() + " Nodes (" + nodes.stream()
                    .map(KubeDocuments.Sourced::name).toList() + "): choose one with --node NAME");
        }
        return nodes.get(0);
    }

    /** The object named after the node; a single one of another name also applies, with a note. */
    private static KubeDocuments.Sourced forNode(List<KubeDocuments.Sourced> docs, String node, String kind, List<String> notes)
            throws InvalidInputException {
        List<KubeDocuments.Sourced> mine = docs.stream().filter(d -> d.name().equals(node)).toList();
        if (mine.size() > 1) {
            throw new InvalidInputException(mine.get(1).file() + ": " + kind + " " + node + " is given twice");
        }
        if (mine.size() == 1) {
            return mine.get(0);
        }
        if (docs.size() == 1) {
            notes.add(kind + " " + docs.get(0).name() + " is used for node " + node + " (the only one in the input)");
            return docs.get(0);
        }
        return null;
    }

    private static Sample usage(ResourceMap map, String where) throws InvalidInputException {
        Map<String, Quantity> r = map == null || map.resources() == null ? Map.of() : map.resources();
        Quantity cpu = r.get("cpu");
        Quantity memory = r.get("memory");
        return new Sample(cpu == null ? null : Quantities.milliValue(cpu.toString(), where + ".cpu"),
                memory == null ? null : Quantities.value(memory.toString(), where + ".memory"));
    }
}
