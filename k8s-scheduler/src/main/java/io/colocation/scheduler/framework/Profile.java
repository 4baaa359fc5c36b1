package io.colocation.scheduler.framework;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scheduler profile: its name and the plugins enabled at each extension point, scores with their weights.
 * Built from a KubeSchedulerConfiguration profile by {@code SchedulerConfiguration}.
 * {@code percentageOfNodesToScore}: kube-scheduler's, 0 = adaptive, 100 = every node (see {@link NodeSearch}).
 */
public record Profile(String schedulerName, List<FilterPlugin> filters, List<Weighted> scores, int percentageOfNodesToScore) {

    /** A profile with kube-scheduler's adaptive percentageOfNodesToScore (0). */
    public Profile(String schedulerName, List<FilterPlugin> filters, List<Weighted> scores) {
        this(schedulerName, filters, scores, 0);
    }

    /** A score plugin and its weight. */
    public record Weighted(ScorePlugin plugin, long weight) {
    }

    /** Every enabled plugin once, in the order of first appearance (filters, then scores). */
    public List<Plugin> plugins() {
        Map<String, Plugin> all = new LinkedHashMap<>();
        filters.forEach(p -> all.putIfAbsent(p.name(), p));
        scores.forEach(w -> all.putIfAbsent(w.plugin().name(), w.plugin()));
        return new ArrayList<>(all.values());
    }
}
