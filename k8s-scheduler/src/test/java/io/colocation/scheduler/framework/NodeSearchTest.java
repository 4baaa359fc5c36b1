package io.colocation.scheduler.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How much of a cluster a running scheduler searches: kube-scheduler's numFeasibleNodesToFind and its rotation. */
class NodeSearchTest {
    /** kube-scheduler v1.20's TestNumFeasibleNodesToFind cases, and the sizes of the benchmark. */
    @ParameterizedTest(name = "{0} nodes at {1} %: {2}")
    @CsvSource({
            "10, 0, 10",       // not set, nodes under 100: all
            "10, 40, 10",      // set, nodes under 100: all
            "1000, 0, 420",    // not set: 50 - 1000/125 = 42 %
            "1000, 40, 400",
            "6000, 0, 300",    // adaptive floor of 5 %
            "6000, 40, 2400",
            "5000, 0, 500",
            "150, 10, 100",    // never fewer than 100
            "150, 100, 150"})
    void feasibleNodesToFind(int nodes, int percentage, int expected) {
        assertEquals(expected, NodeSearch.feasibleNodesToFind(nodes, percentage));
    }

    private static NodeInfo node(int i) {
        Node n = new NodeBuilder().withNewMetadata().withName(String.format("node-%04d", i)).endMetadata().build();
        return new NodeInfo(n, Map.of("cpu", 1000L), List.of(), Map.of(), null);
    }

    /** A pod that asks for nothing. */
    private static PodInfo pendingPod() {
        Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata().withNewSpec().endSpec().build();
        return new PodInfo(pod, "ns/p", null, Map.of(), Map.of(), Instant.EPOCH, null);
    }

    /** A filter that passes every node and a score that prefers no node: each search finds its quota and stops. */
    @Test
    void eachSearchStartsWhereThePreviousStopped() {
        List<NodeInfo> nodes = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            nodes.add(node(i));
        }
        Set<String> looked = new HashSet<>();
        FilterPlugin all = new FilterPlugin() {
            @Override
            public String name() {
                return "All";
            }

            @Override
            public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
                looked.add(node.name());
                return Status.SUCCESS;
            }
        };
        ScorePlugin flat = new ScorePlugin() {
            @Override
            public String name() {
                return "Flat";
            }

            @Override
            public long score(CycleState state, PodInfo pod, NodeInfo node) {
                return 0;
            }
        };
        Profile profile = new Profile("p", List.of(all), List.of(new Profile.Weighted(flat, 1)), 10);
        PodInfo info = pendingPod();
        ClusterSnapshot snapshot = new ClusterSnapshot(nodes, Instant.EPOCH);
        NodeSearch search = new NodeSearch();
        // 10 % of 1,000 is 100 nodes a search: ties go to the first of them in node order.
        assertEquals("node-0000", SchedulingCycle.select(profile, snapshot, info, search).node());
        assertEquals(100, looked.size());
        assertEquals("node-0100", SchedulingCycle.select(profile, snapshot, info, search).node());
        for (int i = 2; i < 10; i++) {
            SchedulingCycle.select(profile, snapshot, info, search).node();
        }
        assertEquals(1000, looked.size(), "ten searches looked at every node once");
        assertEquals("node-0000", SchedulingCycle.select(profile, snapshot, info, search).node(), "and the eleventh starts over");
        assertEquals("node-0000", SchedulingCycle.select(profile, snapshot, info, null).node(), "no search: every node, the first wins");
    }

    /** A plugin with a NormalizeScore (here: the reverse of its raw score): the search applies it as explain's decide does. */
    @Test
    void aNormalizeScoreCountsInTheSearchAsInDecide() {
        List<NodeInfo> nodes = List.of(node(0), node(1), node(2));
        ScorePlugin reversed = new ScorePlugin() {
            @Override
            public String name() {
                return "Reversed";
            }

            @Override
            public long score(CycleState state, PodInfo pod, NodeInfo node) {
                return Integer.parseInt(node.name().substring(5)) * 10L; // node-0002 scores highest raw
            }

            @Override
            public void normalize(CycleState state, PodInfo pod, Map<String, Long> scores) {
                scores.replaceAll((node, score) -> MAX_NODE_SCORE - score);
            }

            @Override
            public boolean normalizes() {
                return true;
            }
        };
        Profile profile = new Profile("p", List.of(), List.of(new Profile.Weighted(reversed, 2)));
        PodInfo info = pendingPod();
        ClusterSnapshot snapshot = new ClusterSnapshot(nodes, Instant.EPOCH);
        assertEquals("node-0000", SchedulingCycle.decide(profile, snapshot, info).selected());
        assertEquals("node-0000", SchedulingCycle.select(profile, snapshot, info, new NodeSearch()).node());
    }
}
