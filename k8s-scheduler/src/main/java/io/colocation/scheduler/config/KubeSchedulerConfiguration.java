package io.colocation.scheduler.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.scheduler.framework.BindPlugin;
import io.colocation.scheduler.framework.FilterPlugin;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.PermitPlugin;
import io.colocation.scheduler.framework.Plugin;
import io.colocation.scheduler.framework.PostFilterPlugin;
import io.colocation.scheduler.framework.PreFilterPlugin;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.QueueSortPlugin;
import io.colocation.scheduler.framework.ReservePlugin;
import io.colocation.scheduler.framework.ScorePlugin;
import io.colocation.scheduler.plugins.coscheduling.Coscheduling;
import io.colocation.scheduler.plugins.coscheduling.CoschedulingArgs;
import io.colocation.scheduler.plugins.defaultbinder.DefaultBinder;
import io.colocation.scheduler.plugins.elasticquota.ElasticQuota;
import io.colocation.scheduler.plugins.elasticquota.ElasticQuotaArgs;
import io.colocation.scheduler.plugins.loadaware.LoadAwareArgs;
import io.colocation.scheduler.plugins.loadaware.LoadAwareScheduling;
import io.colocation.scheduler.plugins.nodeaffinity.NodeAffinity;
import io.colocation.scheduler.plugins.noderesources.NodeResourcesFit;
import io.colocation.scheduler.plugins.queuesort.PrioritySort;
import io.colocation.scheduler.plugins.tainttoleration.TaintToleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@code KubeSchedulerConfiguration} ({@code kubescheduler.config.k8s.io/v1}, v1beta2, v1beta3) turned into profiles:
 * per extension point the default plugins minus {@code disabled} ({@code *} = all) plus {@code enabled} (an enabled
 * default takes the new weight), {@code multiPoint} counting for every point, and each plugin built with its
 * {@code pluginConfig} args. Plugins this scheduler does not have (Koordinator's NUMA, reservation, ...) are
 * skipped with a note rather than failing a configuration copied from Koordinator.
 */
public final class KubeSchedulerConfiguration {
    public static final String DEFAULT_SCHEDULER_NAME = "koord-scheduler";
    static final List<String> API_VERSIONS = List.of("kubescheduler.config.k8s.io/v1", "kubescheduler.config.k8s.io/v1beta3",
            "kubescheduler.config.k8s.io/v1beta2");
    static final List<String> DEFAULT_FILTERS = List.of(NodeResourcesFit.NAME, NodeAffinity.NAME, TaintToleration.NAME,
            LoadAwareScheduling.NAME);
    static final Map<String, Long> DEFAULT_SCORES = Map.of(LoadAwareScheduling.NAME, 1L);
    /** The other extension points' defaults, as Koordinator's scheduler configuration enables them. */
    static final Map<String, List<String>> DEFAULT_OTHERS = Map.of("queueSort", List.of(PrioritySort.NAME),
            "preFilter", List.of(Coscheduling.NAME), "postFilter", List.of(Coscheduling.NAME),
            "reserve", List.of(Coscheduling.NAME), "permit", List.of(Coscheduling.NAME), "bind", List.of(DefaultBinder.NAME));
    static final List<String> KNOWN = List.of(NodeResourcesFit.NAME, NodeAffinity.NAME, TaintToleration.NAME,
            LoadAwareScheduling.NAME, PrioritySort.NAME, Coscheduling.NAME, DefaultBinder.NAME, ElasticQuota.NAME);

    public record Result(List<Profile> profiles, List<String> notes) {
    }

    private KubeSchedulerConfiguration() {
    }

    /** The default profile for explain (no handle: filters and scores only run). */
    public static Result defaults() {
        return defaults(null);
    }

    /**
     * The default profile: queue sort PrioritySort; filters NodeResourcesFit, NodeAffinity, TaintToleration,
     * LoadAwareScheduling; score LoadAwareScheduling; Coscheduling at pre-filter, post-filter, reserve and permit;
     * bind DefaultBinder.
     */
    public static Result defaults(Handle handle) {
        try {
            return build(DEFAULT_SCHEDULER_NAME, null, null, 0, "defaults", new ArrayList<>(), handle);
        } catch (InvalidInputException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Profiles for explain: no handle, so the plugins that act on the cluster are built but never run. */
    public static Result parse(JsonNode doc, String where) throws InvalidInputException {
        return parse(doc, where, null);
    }

    /** Profiles for the running scheduler, whose plugins act on the cluster through {@code handle}. */
    public static Result parse(JsonNode doc, String where, Handle handle) throws InvalidInputException {
        String apiVersion = doc.path("apiVersion").asText("");
        if (!API_VERSIONS.contains(apiVersion)) {
            throw new InvalidInputException(where + ": apiVersion must be one of " + API_VERSIONS + ", found '" + apiVersion + "'");
        }
        if (!doc.path("kind").asText("").equals("KubeSchedulerConfiguration")) {
            throw new InvalidInputException(where + ": kind must be KubeSchedulerConfiguration, found '"
                    + doc.path("kind").asText("") + "'");
        }
        JsonNode profiles = doc.path("profiles");
        List<String> notes = new ArrayList<>();
        int percentage = percentage(doc, 0, where);
        if (!profiles.isMissingNode() && !profiles.isNull() && !profiles.isArray()) {
            throw new InvalidInputException(where + ": profiles must be a list of profiles, found " + profiles.getNodeType()
                    .toString().toLowerCase(java.util.Locale.ROOT) + " " + profiles);
        }
        if (profiles.isMissingNode() || profiles.isNull() || profiles.isEmpty()) {
            return build(DEFAULT_SCHEDULER_NAME, null, null, percentage, where, notes, handle);
        }
        List<Profile> out = new ArrayList<>();
        for (int i = 0; i < profiles.size(); i++) {
            JsonNode p = profiles.get(i);
            String at = where + ": profiles[" + i + "]";
            String name = p.path("schedulerName").asText(DEFAULT_SCHEDULER_NAME);
            out.addAll(build(name, p.get("plugins"), p.get("pluginConfig"), percentage(p, percentage, at), at, notes, handle).profiles());
        }
        return new Result(out, notes);
    }

    /** {@code percentageOfNodesToScore} (0-100; 0 adaptive) of the configuration or a profile; absent: {@code inherited}. */
    private static int percentage(JsonNode doc, int inherited, String where) throws InvalidInputException {
        JsonNode p = doc.get("percentageOfNodesToScore");
        if (p == null || p.isNull()) {
            return inherited;
        }
        if (!p.canConvertToInt() || !p.isIntegralNumber() || p.asInt() < 0 || p.asInt() > 100) {
            throw new InvalidInputException(where + ": percentageOfNodesToScore must be an integer from 0 to 100, found " + p);
        }
        return p.asInt();
    }

    private static Result build(String name, JsonNode plugins, JsonNode pluginConfig, int percentageOfNodesToScore,
            String where, List<String> notes, Handle handle) throws InvalidInputException {
        Map<String, JsonNode> args = new LinkedHashMap<>();
        if (pluginConfig != null && !pluginConfig.isNull()) {
            if (!pluginConfig.isArray()) {
                throw new InvalidInputException(where + ".pluginConfig: must be a list of {name, args}");
            }
            for (int i = 0; i < pluginConfig.size(); i++) {
                args.put(pluginConfig.get(i).path("name").asText(""), pluginConfig.get(i).get("args"));
            }
        }
        Map<String, Long> filters = points(plugins, "filter", where, notes, toWeights(DEFAULT_FILTERS));
        Map<String, Long> scores = points(plugins, "score", where, notes, new LinkedHashMap<>(DEFAULT_SCORES));
        Set<String> multiPoint = new LinkedHashSet<>();
        if (plugins != null) {
            plugins.path("multiPoint").path("enabled").forEach(e -> multiPoint.add(e.path("name").asText("")));
        }
        Map<String, Map<String, Long>> others = new LinkedHashMap<>();
        for (String point : List.of("queueSort", "preFilter", "postFilter", "reserve", "permit", "bind")) {
            others.put(point, points(plugins, point, where, notes, toWeights(DEFAULT_OTHERS.get(point))));
        }
        Set<String> names = new LinkedHashSet<>(filters.keySet());
        names.addAll(scores.keySet());
        others.values().forEach(m -> names.addAll(m.keySet()));
        Map<String, Plugin> built = new LinkedHashMap<>();
        for (String p : names) {
            built.put(p, create(p, args.get(p), where + ".pluginConfig[" + p + "].args", handle));
        }
        List<FilterPlugin> filterPlugins = at(built, multiPoint, filters.keySet(), FilterPlugin.class, "filter", where, notes);
        List<Profile.Weighted> scorePlugins = new ArrayList<>();
        for (Map.Entry<String, Long> e : scores.entrySet()) {
            if (built.get(e.getKey()) instanceof ScorePlugin s) {
                scorePlugins.add(new Profile.Weighted(s, e.getValue()));
            } else if (!multiPoint.contains(e.getKey())) {
                notes.add(where + ": " + e.getKey() + " has no score extension; ignored at score");
            }
        }
        List<QueueSortPlugin> queueSort = at(built, multiPoint, others.get("queueSort").keySet(), QueueSortPlugin.class, "queueSort", where, notes);
        if (queueSort.size() > 1) {
            throw new InvalidInputException(where + ".plugins.queueSort: one plugin at most, found " + queueSort.stream()
                    .map(Plugin::name).toList());
        }
        return new Result(List.of(new Profile(name, queueSort.isEmpty() ? null : queueSort.get(0),
                at(built, multiPoint, others.get("preFilter").keySet(), PreFilterPlugin.class, "preFilter", where, notes), filterPlugins,
                at(built, multiPoint, others.get("postFilter").keySet(), PostFilterPlugin.class, "postFilter", where, notes), scorePlugins,
                at(built, multiPoint, others.get("reserve").keySet(), ReservePlugin.class, "reserve", where, notes),
                at(built, multiPoint, others.get("permit").keySet(), PermitPlugin.class, "permit", where, notes),
                at(built, multiPoint, others.get("bind").keySet(), BindPlugin.class, "bind", where, notes), percentageOfNodesToScore)), notes);
    }

    /** The plugins enabled at one point that have its extension; the others are noted and left out. */
    private static <T> List<T> at(Map<String, Plugin> built, Set<String> multiPoint, Set<String> enabled, Class<T> point, String pointName,
            String where, List<String> notes) {
        List<T> out = new ArrayList<>();
        for (String p : enabled) {
            if (point.isInstance(built.get(p))) {
                out.add(point.cast(built.get(p)));
            } else if (!multiPoint.contains(p)) { // multiPoint enables a plugin where it has extensions, silently
                notes.add(where + ": " + p + " has no " + pointName + " extension; ignored at " + pointName);
            }
        }
        return out;
    }

    private static Map<String, Long> toWeights(List<String> names) {
        Map<String, Long> m = new LinkedHashMap<>();
        names.forEach(n -> m.put(n, 1L));
        return m;
    }

    /** The plugins of one extension point: defaults − disabled + enabled, multiPoint included. */
    private static Map<String, Long> points(JsonNode plugins, String point, String where, List<String> notes,
            Map<String, Long> defaults) throws InvalidInputException {
        if (plugins == null || plugins.isNull()) {
            return defaults;
        }
        Map<String, Long> out = defaults;
        for (String section : List.of("multiPoint", point)) {
            JsonNode set = plugins.path(section);
            if (set.isMissingNode() || set.isNull()) {
                continue;
            }
            for (JsonNode d : list(set, "disabled", where + ".plugins." + section)) {
                String n = d.path("name").asText("");
                if (n.equals("*")) {
                    out.clear();
                } else {
                    out.remove(n);
                }
            }
            for (JsonNode e : list(set, "enabled", where + ".plugins." + section)) {
                String n = e.path("name").asText("");
                if (n.isEmpty()) {
                    throw new InvalidInputException(where + ".plugins." + section + ".enabled: an entry without name");
                }
                if (!KNOWN.contains(n)) {
                    notes.add(where + ": plugin " + n + " is not part of this scheduler; skipped");
                    continue;
                }
                JsonNode w = e.get("weight");
                long weight = 0;
                if (w != null && !w.isNull()) {
                    // kube-scheduler's Plugin.weight is an int32: with every score at most 100 a total cannot overflow
                    if (!w.isIntegralNumber() || !w.canConvertToInt() || w.intValue() < 0) {
                        throw new InvalidInputException(where + ".plugins." + section + ".enabled[" + n + "].weight: must be an"
                                + " integer from 0 to 2147483647 (an int32), found " + w);
                    }
                    weight = w.intValue();
                }
                out.put(n, weight == 0 ? 1 : weight);
            }
        }
        return out;
    }

    private static List<JsonNode> list(JsonNode set, String field, String where) throws InvalidInputException {
        JsonNode l = set.path(field);
        if (l.isMissingNode() || l.isNull()) {
            return List.of();
        }
        if (!l.isArray()) {
            throw new InvalidInputException(where + "." + field + ": must be a list of {name, weight}");
        }
        List<JsonNode> out = new ArrayList<>();
        l.forEach(out::add);
        return out;
    }

    private static Plugin create(String name, JsonNode args, String where, Handle handle) throws InvalidInputException {
        return switch (name) {
            case PrioritySort.NAME -> new PrioritySort();
            case Coscheduling.NAME -> new Coscheduling(CoschedulingArgs.parse(args, where), handle);
            case ElasticQuota.NAME -> new ElasticQuota(ElasticQuotaArgs.parse(args, where), handle);
            case DefaultBinder.NAME -> new DefaultBinder(handle);
            case NodeResourcesFit.NAME -> new NodeResourcesFit();
            case NodeAffinity.NAME -> new NodeAffinity();
            case TaintToleration.NAME -> new TaintToleration();
            case LoadAwareScheduling.NAME -> new LoadAwareScheduling(LoadAwareArgs.parse(args, where));
            default -> throw new IllegalStateException("no factory for " + name);
        };
    }
}
