package io.colocation.scheduler.framework;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides one pod on a snapshot as kube-scheduler's cycle does (filter, score, normalize, weight, select), and keeps
 * every plugin's view of every node: filters run on all nodes, even one another plugin rejected, and scores are
 * computed for all nodes, so {@code explain} can show why each node lost. The running scheduler uses the same cycle.
 */
public final class SchedulingCycle {
    /** One plugin's view of one node: filter verdict (null: no filter extension), raw score (null: none). */
    public record PluginView(Status filter, Long score) {
    }

    /** One node: the combined filter verdict with every reason, each plugin's view, and the weighted total. */
    public record NodeResult(String node, Status filter, Map<String, PluginView> plugins, Long score) {
    }

    public record Decision(String pod, List<NodeResult> nodes, String selected) {
        /** kube-scheduler's summary: {@code 0/3 nodes are available: 2 Insufficient cpu, 1 node(s) had untolerated taint {a}.} */
        public String unavailableSummary() {
            Map<String, Integer> counts = new java.util.TreeMap<>();
            nodes.forEach(n -> n.filter().reasons().forEach(r -> counts.merge(r, 1, Integer::sum)));
            return summary(nodes.stream().filter(n -> n.filter().success()).count(), nodes.size(), counts);
        }
    }

    private SchedulingCycle() {
    }

    /**
     * What a running scheduler's search found: the node, or (null node) why none fits, kube-scheduler's summary of each
     * node's first rejecting filter.
     */
    public record Selection(String node, String unavailable) {
    }

    /**
     * The node {@link #decide} selects, found the way a running scheduler must: a node's filters stop at the first
     * that rejects it, only feasible nodes are scored, and with no score plugin the first feasible node in order is
     * the answer. A cluster of 100 nodes or more is searched only as far as {@code search} allows (kube-scheduler's
     * percentageOfNodesToScore); null searches every node. When no node fits, every node was judged, and the summary
     * counts the reasons of each node's first rejecting filter, as kube-scheduler's FailedScheduling message does.
     */
    public static Selection select(Profile profile, ClusterSnapshot snapshot, PodInfo pod, NodeSearch search) {
        return select(profile, new CycleState(snapshot), pod, search);
    }

    /** As above, in a cycle whose state the pre-filter plugins have already written. */
    public static Selection select(Profile profile, CycleState state, PodInfo pod, NodeSearch search) {
        List<NodeInfo> nodes = state.snapshot().nodes();
        int all = nodes.size();
        int toFind = search == null ? all : NodeSearch.feasibleNodesToFind(all, profile.percentageOfNodesToScore());
        boolean sampled = toFind < all;
        int start = sampled ? search.start(all) : 0;
        // Nothing to compare without a score plugin: the first feasible node is the answer.
        int wanted = profile.scores().isEmpty() ? Math.min(toFind, 1) : toFind;
        int[] feasible = new int[Math.min(wanted, all)];
        int found = 0;
        // Counted by verdict, read out as reasons only when no node fits: plugins hand the same verdict to many nodes.
        Map<Status, int[]> rejections = new java.util.IdentityHashMap<>();
        // The first filter judges from the resource columns where it can: a node it rejects is never read.
        NodeOrder order = state.snapshot().order();
        ColumnFilter.Screen screen = profile.filters().isEmpty() || !(profile.filters().get(0) instanceof ColumnFilter c) ? null
                : c.screen(pod);
        int processed = 0;
        while (processed < all && found < wanted) {
            int i = (start + processed++) % all;
            Status rejected;
            if (screen == null) {
                rejected = firstRejection(profile, state, pod, nodes.get(i), 0);
            } else {
                rejected = screen.judge(order.columnsOf(i), NodeOrder.slot(i));
                if (rejected == null) {
                    rejected = firstRejection(profile, state, pod, nodes.get(i), 1);
                }
            }
            if (rejected == null) {
                feasible[found++] = i;
            } else {
                rejections.computeIfAbsent(rejected, s -> new int[1])[0]++;
            }
        }
        if (sampled) {
            search.stoppedAfter(start, processed, all);
        }
        if (found == 0) {
            Map<String, Integer> reasons = new java.util.TreeMap<>();
            rejections.forEach((status, count) -> status.reasons().forEach(r -> reasons.merge(r, count[0], Integer::sum)));
            return new Selection(null, summary(0, all, reasons));
        }
        Arrays.sort(feasible, 0, found); // ties go to the first node in order, as in decide
        long[] totals = new long[found];
        long[] raw = new long[found];
        for (Profile.Weighted w : profile.scores()) {
            for (int k = 0; k < found; k++) {
                raw[k] = w.plugin().score(state, pod, nodes.get(feasible[k]));
            }
            if (w.plugin().normalizes()) {
                Map<String, Long> byNode = new LinkedHashMap<>();
                for (int k = 0; k < found; k++) {
                    byNode.put(nodes.get(feasible[k]).name(), raw[k]);
                }
                w.plugin().normalize(state, pod, byNode);
                for (int k = 0; k < found; k++) {
                    raw[k] = byNode.get(nodes.get(feasible[k]).name());
                }
            }
            for (int k = 0; k < found; k++) {
                totals[k] += raw[k] * w.weight();
            }
        }
        int best = 0;
        for (int k = 1; k < found; k++) {
            if (totals[k] > totals[best]) {
                best = k;
            }
        }
        return new Selection(nodes.get(feasible[best]).name(), null);
    }

    /** kube-scheduler's summary: {@code 0/3 nodes are available: 2 Insufficient cpu, 1 node(s) had untolerated taint {a}.} */
    private static String summary(long feasible, int all, Map<String, Integer> reasonCounts) {
        List<String> parts = new ArrayList<>();
        reasonCounts.forEach((r, c) -> parts.add(c + " " + r));
        return feasible + "/" + all + " nodes are available" + (parts.isEmpty() ? "." : ": " + String.join(", ", parts) + ".");
    }

    /**
     * Whether every filter of the profile passes the pod on the node (in a cycle state of its own): the check of a
     * change that may let a node take an unschedulable pod.
     */
    public static boolean feasible(Profile profile, CycleState state, PodInfo pod, NodeInfo node) {
        return firstRejection(profile, state, pod, node, 0) == null;
    }

    /** The first rejection of the profile's filters from the {@code from}th on; null when they all pass. */
    private static Status firstRejection(Profile profile, CycleState state, PodInfo pod, NodeInfo node, int from) {
        List<FilterPlugin> filters = profile.filters();
        for (int k = from; k < filters.size(); k++) {
            Status s = filters.get(k).filter(state, pod, node);
            if (!s.success()) {
                return s;
            }
        }
        return null;
    }

    public static Decision decide(Profile profile, ClusterSnapshot snapshot, PodInfo pod) {
        return decide(profile, new CycleState(snapshot), pod);
    }

    /** As above, in a cycle whose state the pre-filter plugins have already written. */
    public static Decision decide(Profile profile, CycleState state, PodInfo pod) {
        ClusterSnapshot snapshot = state.snapshot();
        Map<String, Status> filterByNode = new LinkedHashMap<>();
        Map<String, Map<String, Status>> pluginFilters = new LinkedHashMap<>();
        for (NodeInfo node : snapshot.nodes()) {
            List<String> reasons = new ArrayList<>();
            Map<String, Status> mine = new LinkedHashMap<>();
            for (FilterPlugin f : profile.filters()) {
                Status s = f.filter(state, pod, node);
                mine.put(f.name(), s);
                if (!s.success()) {
                    reasons.addAll(s.reasons());
                }
            }
            pluginFilters.put(node.name(), mine);
            filterByNode.put(node.name(), reasons.isEmpty() ? Status.SUCCESS : new Status(Status.Code.UNSCHEDULABLE, reasons));
        }
        Map<String, Map<String, Long>> rawScores = new LinkedHashMap<>();
        Map<String, Long> totals = new LinkedHashMap<>();
        snapshot.nodes().forEach(n -> {
            rawScores.put(n.name(), new LinkedHashMap<>());
            if (filterByNode.get(n.name()).success()) {
                totals.put(n.name(), 0L);
            }
        });
        for (Profile.Weighted w : profile.scores()) {
            Map<String, Long> feasible = new LinkedHashMap<>();
            for (NodeInfo node : snapshot.nodes()) {
                long raw = w.plugin().score(state, pod, node);
                rawScores.get(node.name()).put(w.plugin().name(), raw);
                if (totals.containsKey(node.name())) {
                    feasible.put(node.name(), raw);
                }
            }
            w.plugin().normalize(state, pod, feasible);
            feasible.forEach((node, score) -> totals.merge(node, score * w.weight(), Long::sum));
        }
        List<NodeResult> results = new ArrayList<>();
        String selected = null;
        long best = Long.MIN_VALUE;
        for (NodeInfo node : snapshot.nodes()) {
            Map<String, PluginView> views = new LinkedHashMap<>();
            for (Plugin p : profile.nodePlugins()) {
                views.put(p.name(), new PluginView(pluginFilters.get(node.name()).get(p.name()),
                        rawScores.get(node.name()).get(p.name())));
            }
            Long total = totals.get(node.name());
            results.add(new NodeResult(node.name(), filterByNode.get(node.name()), views, total));
            if (total != null && total > best) {
                best = total;
                selected = node.name(); // ties: the first node in order
            }
        }
        return new Decision(pod.key(), results, selected);
    }
}
