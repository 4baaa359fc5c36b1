package io.colocation.scheduler.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.colocation.scheduler.plugins.noderesources.NodeResourcesFit;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The running scheduler's search when no node fits: kube-scheduler's summary counts each node's first rejection. */
class SchedulingCycleTest {
    private static NodeInfo node(String name, String cpu, String memory) {
        return PluginFixtures.node("""
                metadata: {name: %s}
                status: {allocatable: {cpu: "%s", memory: %s, pods: "110"}}
                """.formatted(name, cpu, memory), List.of(), null);
    }

    @Test
    void summaryCountsEveryReasonOfEachNodesVerdictWhetherSharedOrItsOwn() {
        PodInfo pod = PluginFixtures.pod("containers: [{name: c, resources: {requests: {cpu: '4', memory: 8Gi}}}]");
        List<NodeInfo> nodes = List.of(node("a", "2", "64Gi"), node("b", "1", "4Gi"), node("c", "3", "64Gi"), node("d", "64", "4Gi"));
        Profile profile = new Profile("test", List.of(new NodeResourcesFit()), List.of());
        SchedulingCycle.Selection none = SchedulingCycle.select(profile, new ClusterSnapshot(nodes, PluginFixtures.NOW), pod, null);
        assertNull(none.node());
        assertEquals("0/4 nodes are available: 3 Insufficient cpu, 2 Insufficient memory.", none.unavailable());
        // the same verdict for every node short of the same resource
        NodeResourcesFit fit = new NodeResourcesFit();
        assertSame(fit.filter(null, pod, nodes.get(0)), fit.filter(null, pod, nodes.get(2)));
        assertEquals(List.of("Insufficient cpu", "Insufficient memory"), fit.filter(null, pod, nodes.get(1)).reasons());
    }

    @Test
    void aFeasibleNodeIsFoundPastRejectedOnes() {
        PodInfo pod = PluginFixtures.pod("containers: [{name: c, resources: {requests: {cpu: '4'}}}]");
        List<NodeInfo> nodes = List.of(node("a", "2", "64Gi"), node("b", "8", "64Gi"));
        Profile profile = new Profile("test", List.of(new NodeResourcesFit()), List.of());
        assertEquals(new SchedulingCycle.Selection("b", null),
                SchedulingCycle.select(profile, new ClusterSnapshot(nodes, PluginFixtures.NOW), pod, null));
    }
}
