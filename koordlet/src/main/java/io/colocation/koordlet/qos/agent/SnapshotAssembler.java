package io.colocation.koordlet.qos.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.Usage;
import io.colocation.koordlet.kube.PodReadings;
import io.colocation.koordlet.qos.BestEffortState;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.HostApplication;
import io.colocation.koordlet.qos.QoSNode;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.QoSPod;
import io.colocation.koordlet.qos.QoSPods;
import io.colocation.koordlet.qos.Processor;
import io.colocation.koordlet.qos.ResourceThresholds;
import io.colocation.koordlet.qos.YarnContainerState;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds the strategies' {@link NodeSnapshot} from the running agent, as {@code koordlet explain} builds it from
 * documents. YARN is part of the BE tier: its total is the BE host application under the besteffort cgroup, and
 * each running container is a BE candidate (its ApplicationMaster last). The Node, the NodeSLO's thresholds and each pod
 * are decoded again only when their resourceVersion changed. The QoS thread's own.
 */
final class SnapshotAssembler {
    /** A pod as the strategies see it before its usage, with what reading it noted; or why it cannot be read. */
    private record PodReading(QoSPod state, List<String> notes, String error) {
    }

    private final PodReadings<PodReading> podStates = new PodReadings<>(SnapshotAssembler::readPod);
    private final ByVersion<Node, QoSNode> facts = new ByVersion<>((n, notes) ->
            QoSNode.of(n, "Node " + n.getMetadata().getName() + ": ", notes));
    private final ByVersion<JsonNode, ResourceThresholds> thresholds = new ByVersion<>((spec, notes) ->
            ResourceThresholds.of(spec, "NodeSLO spec.resourceUsedThresholdWithBE"));

    /** Empty until the Node and a first sample are there; what cannot be read is added to {@code problems}. */
    Optional<NodeSnapshot> assemble(AgentState agent, FeatureGates gates, List<Processor> topology, BestEffortState be,
            int collectIntervalSeconds, List<String> problems) {
        Optional<Node> node = agent.node();
        HostSample sample = agent.lastSample();
        if (node.isEmpty() || sample == null) {
            return Optional.empty();
        }
        try {
            QoSNode facts = this.facts.of(node.get(), node.get().getMetadata().getResourceVersion(), problems);
            List<QoSPod> pods = new ArrayList<>();
            podStates.beginRound();
            for (Pod p : agent.pods()) {
                PodReading r = podStates.of(p);
                if (r.error() != null) {
                    throw new InvalidInputException(r.error());
                }
                problems.addAll(r.notes());
                Usage u = sample.pods().get(p.getMetadata().getUid());
                pods.add(r.state().withUsage(cpuMilli(u), memory(u)));
            }
            podStates.endRound();
            ResourceThresholds thresholds = null;
            List<HostApplication> apps = new ArrayList<>();
            Optional<NodeSLO> slo = agent.nodeSlo();
            if (slo.isPresent()) {
                NodeSLO.Spec spec = slo.get().getSpec();
                thresholds = this.thresholds.of(spec == null ? null : spec.resourceUsedThresholdWithBE(),
                        slo.get().getMetadata() == null ? null : slo.get().getMetadata().getResourceVersion(), problems);
                JsonNode declared = spec == null ? null : spec.hostApplications();
                for (int i = 0; declared != null && i < declared.size(); i++) {
                    JsonNode a = declared.get(i);
                    String name = a.path("name").asText("");
                    if (name.isEmpty() || name.equals(agent.yarnHostApplication())) {
                        continue;
                    }
                    Usage u = sample.hostApps().get(name);
                    JsonNode base = a.path("cgroupPath").path("base");
                    apps.add(new HostApplication(name, a.path("qos").asText(""), base.isMissingNode() ? null : base.asText(),
                            cpuMilli(u), memory(u)));
                }
            }
            if (!sample.yarn().isMissing()) {
                apps.add(new HostApplication(agent.yarnHostApplication(), "BE", "KubepodsBesteffort", cpuMilli(sample.yarn()),
                        memory(sample.yarn())));
            }
            List<YarnContainerState> containers = new ArrayList<>();
            for (CollectTargets.YarnTarget c : agent.yarnContainers().orElse(List.of())) {
                Usage u = sample.yarnContainers().get(c.containerID());
                containers.add(new YarnContainerState(c.containerID(), c.priority(), c.applicationMaster(), c.vcores() * 1000L,
                        c.memoryMB() << 20, cpuMilli(u), memory(u)));
            }
            return Optional.of(new NodeSnapshot(facts.name(), facts.capacityCpuMilli(), facts.capacityMemoryBytes(),
                    facts.allocatable(), facts.reservedCpuMilli(), facts.reservedCpus(), facts.systemExclusiveCpus(), pods,
                    containers, cpuMilli(sample.node()), memory(sample.node()), apps, thresholds, gates,
                    topology.isEmpty() ? null : topology, be, collectIntervalSeconds));
        } catch (InvalidInputException e) {
            problems.add(e.getMessage());
            return Optional.empty();
        }
    }

    private static PodReading readPod(Pod pod) {
        List<String> notes = new ArrayList<>();
        String where = "Pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + ": ";
        try {
            return new PodReading(QoSPods.of(pod, null, null, where, notes), List.copyOf(notes), null);
        } catch (InvalidInputException e) {
            return new PodReading(null, List.of(), e.getMessage());
        }
    }

    private static Long cpuMilli(Usage u) {
        return u == null || !u.hasCpu() ? null : Math.round(u.cpuCores() * 1000);
    }

    private static Long memory(Usage u) {
        return u == null || !u.hasMemory() ? null : u.memoryBytes();
    }
}
