package io.colocation.scheduler.framework;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scheduler profile: its name and the plugins enabled at each extension point, in kube-scheduler's order (queue
 * sort, pre-filter, filter, post-filter, score with weights, reserve, permit, bind). Built from a
 * KubeSchedulerConfiguration profile by {@code KubeSchedulerConfiguration}. {@code percentageOfNodesToScore}:
 * kube-scheduler's, 0 = adaptive, 100 = every node (see {@link NodeSearch}).
 *
 * @param queueSort null: kube-scheduler's PrioritySort order is up to the queue (explain has none)
 * @param binds     the first binds; empty in a profile built for explain
 */
public record Profile(String schedulerName, QueueSortPlugin queueSort, List<PreFilterPlugin> preFilters,
        List<FilterPlugin> filters, List<PostFilterPlugin> postFilters, List<Weighted> scores, List<ReservePlugin> reserves,
        List<PermitPlugin> permits, List<BindPlugin> binds, int percentageOfNodesToScore) {

    /** A score plugin and its weight. */
    public record Weighted(ScorePlugin plugin, long weight) {
    }

    /** A profile of filters and scores only, with the adaptive percentageOfNodesToScore. */
    public Profile(String schedulerName, List<FilterPlugin> filters, List<Weighted> scores) {
        this(schedulerName, filters, scores, 0);
    }

    /** A profile of filters and scores only. */
    public Profile(String schedulerName, List<FilterPlugin> filters, List<Weighted> scores, int percentageOfNodesToScore) {
        this(schedulerName, null, List.of(), filters, List.of(), scores, List.of(), List.of(), List.of(), percentageOfNodesToScore);
    }

    /** The same plugins under another scheduler name. */
    public Profile named(String name) {
        return new Profile(name, queueSort, preFilters, filters, postFilters, scores, reserves, permits, binds,
                percentageOfNodesToScore);
    }

    /** The plugins that judge nodes, each once: filters, then scores (what explain shows per node). */
    public List<Plugin> nodePlugins() {
        Map<String, Plugin> all = new LinkedHashMap<>();
        filters.forEach(p -> all.putIfAbsent(p.name(), p));
        scores.forEach(w -> all.putIfAbsent(w.plugin().name(), w.plugin()));
        return new ArrayList<>(all.values());
    }

    /** Every enabled plugin once, in the order of first appearance (filters, then scores, then the other points). */
    public List<Plugin> plugins() {
        Map<String, Plugin> all = new LinkedHashMap<>();
        nodePlugins().forEach(p -> all.putIfAbsent(p.name(), p));
        if (queueSort != null) {
            all.putIfAbsent(queueSort.name(), queueSort);
        }
        preFilters.forEach(p -> all.putIfAbsent(p.name(), p));
        postFilters.forEach(p -> all.putIfAbsent(p.name(), p));
        reserves.forEach(p -> all.putIfAbsent(p.name(), p));
        permits.forEach(p -> all.putIfAbsent(p.name(), p));
        binds.forEach(p -> all.putIfAbsent(p.name(), p));
        return new ArrayList<>(all.values());
    }
}
