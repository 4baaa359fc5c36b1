package io.colocation.scheduler.plugins.noderesources;

import io.colocation.scheduler.framework.ColumnFilter;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.NodeOrder;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-scheduler's {@code NodeResourcesFit} filter over every resource the pod requests, standard and extended alike
 * ({@code kubernetes.io/batch-cpu}, {@code mid-memory}, ...): the node's allocatable, which for batch and mid is the
 * broker's Kubernetes grant, must hold what its pods request plus this pod. The same rule reads a node either from the
 * node ({@link #filter}) or from its chunk's resource columns ({@link #screen}), with the same verdicts.
 */
public final class NodeResourcesFit implements ColumnFilter {
    public static final String NAME = "NodeResourcesFit";
    private static final String PODS = "pods";
    private static final Status TOO_MANY_PODS = Status.unschedulable("Too many pods");
    /** {@code Insufficient <resource>} by resource name: built once, not concatenated for every node a pod does not fit. */
    private static final Map<String, Status> INSUFFICIENT = new ConcurrentHashMap<>();
    /** Pods asking for more resources than this are judged from the node only (a verdict per subset is kept). */
    private static final int MAX_SCREENED_RESOURCES = 10;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        Status rejected = tooManyPods(node.allocatable(PODS, -1), node.podCount()) ? TOO_MANY_PODS : null;
        for (Map.Entry<String, Long> r : pod.requests().entrySet()) {
            long ask = r.getValue();
            if (ask > 0 && lacks(node.requested(r.getKey()), ask, node.allocatable(r.getKey(), 0))) {
                rejected = with(rejected, insufficient(r.getKey()));
            }
        }
        return rejected == null ? Status.SUCCESS : rejected;
    }

    private static boolean tooManyPods(long maxPods, int podCount) {
        return maxPods >= 0 && podCount + 1 > maxPods;
    }

    private static boolean lacks(long requested, long ask, long allocatable) {
        return requested + ask > allocatable;
    }

    /**
     * The verdict so far (null: none) with one more thing the node lacks: the first alone; a node short of several things
     * gets the one verdict shared by every node short of the same things.
     */
    private static Status with(Status sofar, Status lacking) {
        if (sofar == null) {
            return lacking;
        }
        List<String> reasons = new ArrayList<>(sofar.reasons());
        reasons.addAll(lacking.reasons());
        return Status.sharedUnschedulable(reasons);
    }

    @Override
    public ColumnFilter.Screen screen(PodInfo pod) {
        List<String> names = new ArrayList<>();
        List<Long> asks = new ArrayList<>();
        pod.requests().forEach((r, v) -> {
            if (v > 0) {
                names.add(r);
                asks.add(v);
            }
        });
        return names.size() > MAX_SCREENED_RESOURCES ? null
                : new Screen(names.toArray(new String[0]), asks.stream().mapToLong(Long::longValue).toArray());
    }

    /**
     * One pod's fit against column chunks: which of its resources a node lacks is a bit set (bit 0 the pod count), and
     * each set's verdict is made once, as {@link #filter} makes it.
     */
    private static final class Screen implements ColumnFilter.Screen {
        private final String[] names;
        private final long[] asks;
        /** By the bit set of what a node lacks. */
        private final Status[] verdicts;
        /** The chunk last judged and where the pod's resources (and the pod count) are among its columns. */
        private NodeOrder.ResourceColumns chunk;
        private final int[] columns;
        private int podsColumn;

        Screen(String[] names, long[] asks) {
            this.names = names;
            this.asks = asks;
            this.columns = new int[names.length];
            this.verdicts = new Status[1 << (names.length + 1)];
        }

        @Override
        public Status judge(NodeOrder.ResourceColumns c, int slot) {
            if (c != chunk) {
                chunk = c;
                podsColumn = c.column(PODS);
                for (int j = 0; j < names.length; j++) {
                    columns[j] = c.column(names[j]);
                }
            }
            int lacking = tooManyPods(c.allocatable(slot, podsColumn, -1), c.podCount(slot)) ? 1 : 0;
            for (int j = 0; j < names.length; j++) {
                if (lacks(c.requested(slot, columns[j]), asks[j], c.allocatable(slot, columns[j], 0))) {
                    lacking |= 1 << (j + 1);
                }
            }
            if (lacking == 0) {
                return null;
            }
            Status known = verdicts[lacking];
            return known != null ? known : (verdicts[lacking] = verdict(lacking));
        }

        private Status verdict(int lacking) {
            Status rejected = (lacking & 1) != 0 ? TOO_MANY_PODS : null;
            for (int j = 0; j < names.length; j++) {
                if ((lacking & (1 << (j + 1))) != 0) {
                    rejected = with(rejected, insufficient(names[j]));
                }
            }
            return rejected;
        }
    }

    /** Resource names come from pods: only the first few are kept. */
    private static Status insufficient(String resource) {
        Status known = INSUFFICIENT.get(resource);
        if (known != null) {
            return known;
        }
        Status s = Status.sharedUnschedulable("Insufficient " + resource);
        if (INSUFFICIENT.size() < 256) {
            INSUFFICIENT.putIfAbsent(resource, s);
        }
        return s;
    }
}
