package io.colocation.scheduler.framework;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/** One scheduling cycle: the cluster snapshot it decides on and each plugin's data, keyed by plugin name. */
public final class CycleState {
    private final ClusterSnapshot snapshot;
    private final Map<String, Object> data = new HashMap<>();
    /** Set by the framework before PostFilter: the profile whose filters preemption runs again on a node without its victims. */
    private Profile profile;

    public CycleState(ClusterSnapshot snapshot) {
        this.snapshot = snapshot;
    }

    public ClusterSnapshot snapshot() {
        return snapshot;
    }

    void profile(Profile profile) {
        this.profile = profile;
    }

    /**
     * Whether every filter of the cycle's profile passes the pod on {@code node} (kube-scheduler's
     * {@code RunFilterPluginsWithNominatedPods}, for a PostFilter trying a node without some of its pods).
     *
     * @throws IllegalStateException outside PostFilter
     */
    public boolean feasible(PodInfo pod, NodeInfo node) {
        if (profile == null) {
            throw new IllegalStateException("filters are run again only at PostFilter");
        }
        return SchedulingCycle.feasible(profile, this, pod, node);
    }

    /** The plugin's data for this cycle, computed once (a PreFilter result). */
    @SuppressWarnings("unchecked")
    public <T> T computeIfAbsent(String plugin, Function<String, T> compute) {
        Object v = data.get(plugin); // read on every node a search visits: a plain get is the cheapest
        return v != null ? (T) v : (T) data.computeIfAbsent(plugin, compute);
    }
}
