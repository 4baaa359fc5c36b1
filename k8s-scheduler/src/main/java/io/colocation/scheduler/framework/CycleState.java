package io.colocation.scheduler.framework;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/** One scheduling cycle: the cluster snapshot it decides on and each plugin's data, keyed by plugin name. */
public final class CycleState {
    private final ClusterSnapshot snapshot;
    private final Map<String, Object> data = new HashMap<>();

    public CycleState(ClusterSnapshot snapshot) {
        this.snapshot = snapshot;
    }

    public ClusterSnapshot snapshot() {
        return snapshot;
    }

    /** The plugin's data for this cycle, computed once (a PreFilter result). */
    @SuppressWarnings("unchecked")
    public <T> T computeIfAbsent(String plugin, Function<String, T> compute) {
        Object v = data.get(plugin); // read on every node a search visits: a plain get is the cheapest
        return v != null ? (T) v : (T) data.computeIfAbsent(plugin, compute);
    }
}
