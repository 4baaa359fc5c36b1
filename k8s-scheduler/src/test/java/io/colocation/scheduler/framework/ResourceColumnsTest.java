package io.colocation.scheduler.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.scheduler.plugins.noderesources.NodeResourcesFit;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A node's resources read from its chunk's columns are what the node says, and a search that judges fit from the
 * columns finds what a search that reads every node finds: the same node, the same summary when none fits, the same
 * place for the next search to start.
 */
class ResourceColumnsTest {
    private static final String[] RESOURCES = {"cpu", "memory", "pods", "kubernetes.io/batch-cpu", "kubernetes.io/batch-memory",
        "kubernetes.io/mid-cpu", "example.com/gpu"};

    /** A node listing a random subset of the resources, with random amounts (some none, some negative) and pod counts. */
    private static NodeInfo node(Random r, int i) {
        Map<String, Long> allocatable = new LinkedHashMap<>();
        Map<String, Long> requested = new LinkedHashMap<>();
        for (String res : RESOURCES) {
            if (r.nextInt(5) > 0) {
                allocatable.put(res, r.nextInt(12) == 0 ? -1 : (long) r.nextInt(9));
            }
            if (r.nextInt(3) > 0) {
                requested.put(new String(res), (long) r.nextInt(7)); // not interned: NodeInfo interns
            }
        }
        List<PodInfo> pods = Collections.nCopies(r.nextInt(5), pod("assigned", Map.of()));
        Node n = new NodeBuilder().withNewMetadata().withName(String.format("n%04d", i)).endMetadata().build();
        return new NodeInfo(n, allocatable, pods, requested, null);
    }

    private static PodInfo pod(String name, Map<String, Long> requests) {
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata().withNewSpec().endSpec().build();
        return new PodInfo(pod, "ns/" + name, null, requests, Map.of(), Instant.EPOCH, null);
    }

    private static PodInfo pendingPod(Random r, int i) {
        Map<String, Long> requests = new LinkedHashMap<>();
        for (String res : RESOURCES) {
            if (r.nextInt(3) == 0) {
                requests.put(r.nextBoolean() ? res : new String(res), (long) r.nextInt(6) - 1); // 0 and -1: asks nothing
            }
        }
        return pod("p" + i, requests);
    }

    private static List<NodeInfo> cluster(Random r, int size) {
        List<NodeInfo> nodes = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            nodes.add(node(r, i));
        }
        return nodes;
    }

    @Test
    void theColumnsSayWhatEachNodeSays() {
        Random r = new Random(7);
        List<NodeInfo> nodes = cluster(r, 3 * NodeOrder.CHUNK + 11);
        NodeOrder order = NodeOrder.of(nodes);
        for (int i = 0; i < nodes.size(); i++) {
            NodeInfo n = nodes.get(i);
            NodeOrder.ResourceColumns c = order.columnsOf(i);
            int slot = NodeOrder.slot(i);
            assertEquals(n.podCount(), c.podCount(slot));
            for (String res : RESOURCES) {
                int column = c.column(new String(res));
                assertEquals(n.allocatable(res, -7), c.allocatable(slot, column, -7), n.name() + " " + res);
                assertEquals(n.requested(res), c.requested(slot, column), n.name() + " " + res);
            }
        }
    }

    @Test
    void aNewVersionRebuildsOnlyTheColumnsOfTheChunksItChanged() {
        Random r = new Random(11);
        List<NodeInfo> nodes = cluster(r, 3 * NodeOrder.CHUNK);
        NodeOrder v1 = NodeOrder.of(nodes);
        NodeOrder.Editor edit = v1.edit();
        NodeInfo replaced = node(r, 999);
        edit.set(NodeOrder.CHUNK + 5, replaced);
        NodeOrder v2 = edit.done();
        assertSame(v1.columnsOf(0), v2.columnsOf(0));
        assertSame(v1.columnsOf(2 * NodeOrder.CHUNK), v2.columnsOf(2 * NodeOrder.CHUNK));
        assertNotSame(v1.columnsOf(NodeOrder.CHUNK), v2.columnsOf(NodeOrder.CHUNK));
        NodeOrder.ResourceColumns c = v2.columnsOf(NodeOrder.CHUNK + 5);
        assertEquals(replaced.requested("cpu"), c.requested(NodeOrder.slot(NodeOrder.CHUNK + 5), c.column("cpu")));
        assertEquals(nodes.get(NodeOrder.CHUNK + 5).requested("cpu"),
                v1.columnsOf(NodeOrder.CHUNK + 5).requested(5, v1.columnsOf(NodeOrder.CHUNK + 5).column("cpu")), "the old version's");
    }

    /** NodeResourcesFit as a plain filter: the search reads it from every node, never from the columns. */
    private static FilterPlugin readingTheNode(NodeResourcesFit fit) {
        return new FilterPlugin() {
            @Override
            public String name() {
                return fit.name();
            }

            @Override
            public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
                return fit.filter(state, pod, node);
            }
        };
    }

    /** A second filter that rejects some nodes the fit passes, and a score that prefers some nodes. */
    private static final FilterPlugin EVERY_THIRD = new FilterPlugin() {
        @Override
        public String name() {
            return "EveryThird";
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            return node.name().hashCode() % 3 == 0 ? Status.sharedUnschedulable("node(s) every third") : Status.SUCCESS;
        }
    };
    private static final ScorePlugin BY_NAME = new ScorePlugin() {
        @Override
        public String name() {
            return "ByName";
        }

        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
            return Math.floorMod(node.name().hashCode(), 17);
        }
    };

    @Test
    void aSearchJudgingFitFromTheColumnsFindsWhatOneReadingEveryNodeFinds() {
        Random r = new Random(3);
        NodeResourcesFit fit = new NodeResourcesFit();
        int found = 0;
        int none = 0;
        for (int size : new int[] {1, 5, NodeOrder.CHUNK + 3, 150, 700}) {
            for (boolean scored : new boolean[] {false, true}) {
                for (boolean second : new boolean[] {false, true}) {
                    List<NodeInfo> nodes = cluster(r, size);
                    List<Profile.Weighted> scores = scored ? List.of(new Profile.Weighted(BY_NAME, 1)) : List.of();
                    Profile columns = new Profile("columns", second ? List.of(fit, EVERY_THIRD) : List.of(fit), scores);
                    Profile reading = new Profile("reading", second ? List.of(readingTheNode(fit), EVERY_THIRD)
                            : List.of(readingTheNode(fit)), scores);
                    NodeSearch a = new NodeSearch();
                    NodeSearch b = new NodeSearch();
                    ClusterSnapshot snapshot = new ClusterSnapshot(nodes, Instant.EPOCH);
                    for (int p = 0; p < 40; p++) {
                        PodInfo pod = pendingPod(r, p);
                        String what = size + " nodes, scored " + scored + ", second filter " + second + ", pod " + pod.requests();
                        SchedulingCycle.Selection expected = SchedulingCycle.select(reading, snapshot, pod, b);
                        assertEquals(expected, SchedulingCycle.select(columns, snapshot, pod, a), what);
                        if (expected.node() != null) {
                            found++;
                        } else {
                            none++;
                        }
                    }
                }
            }
        }
        assertEquals(800, found + none);
        assertTrue(found > 100 && none > 100, "both outcomes are compared: " + found + " found, " + none + " none");
    }

    @Test
    void aNodeShortOfSeveralThingsGetsFiltersOwnVerdict() {
        NodeResourcesFit fit = new NodeResourcesFit();
        Node n = new NodeBuilder().withNewMetadata().withName("full").endMetadata().build();
        NodeInfo full = new NodeInfo(n, Map.of("cpu", 1000L, "memory", 10L, "pods", 1L), List.of(pod("a", Map.of())),
                Map.of("cpu", 900L), null);
        PodInfo pod = pod("p", new LinkedHashMap<>(Map.of("cpu", 200L)));
        pod.requests().put("memory", 20L);
        ColumnFilter.Screen screen = fit.screen(pod);
        Status fromColumns = screen.judge(NodeOrder.of(List.of(full)).columnsOf(0), 0);
        assertEquals(List.of("Too many pods", "Insufficient cpu", "Insufficient memory"), fromColumns.reasons());
        assertSame(fit.filter(null, pod, full), fromColumns, "the one verdict shared by nodes short of the same things");
    }
}
