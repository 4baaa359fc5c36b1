package io.colocation.scheduler.framework;

import io.colocation.model.slo.NodeMetric;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.List;

/** Nodes, pods and NodeMetrics from YAML for the plugins' table-driven tests, read as the scheduler reads them. */
public final class PluginFixtures {
    public static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

    private PluginFixtures() {
    }

    /** A pending pod; {@code spec} is the YAML under {@code spec:} indented by two spaces (containers included). */
    public static PodInfo pod(String spec) {
        Pod pod = Serialization.unmarshal("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default}
                spec:
                %s
                """.formatted(spec.indent(2)), Pod.class);
        try {
            return Snapshots.pod(pod, NOW, "Pod p: ");
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A node; {@code yaml} holds its metadata/spec/status below {@code kind: Node}. */
    public static NodeInfo node(String yaml, List<PodInfo> pods, NodeMetric metric) {
        Node node = Serialization.unmarshal("apiVersion: v1\nkind: Node\n" + yaml, Node.class);
        try {
            return Snapshots.node(node, pods, metric, "Node: ");
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    public static NodeMetric metric(String yaml) {
        return Serialization.unmarshal("apiVersion: slo.koordinator.sh/v1alpha1\nkind: NodeMetric\n" + yaml, NodeMetric.class);
    }

    /** A fresh cycle over one node. */
    public static CycleState cycle(NodeInfo node) {
        return new CycleState(new ClusterSnapshot(List.of(node), NOW));
    }
}
