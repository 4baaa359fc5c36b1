package io.colocation.scheduler.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.scheduler.framework.FilterPlugin;
import io.colocation.scheduler.framework.Plugin;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.ScorePlugin;
import io.colocation.scheduler.plugins.loadaware.LoadAwareArgs;
import io.colocation.scheduler.plugins.loadaware.LoadAwareScheduling;
import io.colocation.scheduler.plugins.nodeaffinity.NodeAffinity;
import io.colocation.scheduler.plugins.noderesources.NodeResourcesFit;
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
 * {@code pluginConfig} args. Plugins this scheduler does not have (Koordinator's NUMA, reservation, quota, ...) are
 * skipped with a note rather than failing a configuration copied from Koordinator.
 */
public final class SchedulerConfiguration {
    public static final String DEFAULT_SCHEDULER_NAME = "koord-scheduler";
    static final List<String> API_VERSIONS = List.of("kubescheduler.config.k8s.io/v1", "kubescheduler.config.k8s.io/v1beta3",
            "kubescheduler.config.k8s.io/v1beta2");
    static final List<String> DEFAULT_FILTERS = List.of(NodeResourcesFit.NAME, NodeAffinity.NAME, TaintToleration.NAME,
            LoadAwareScheduling.NAME);
    static final Map<String, Long> DEFAULT_SCORES = Map.of(LoadAwareScheduling.NAME, 1L);
    static final List<String> KNOWN = List.of(NodeResourcesFit.NAME, NodeAffinity.NAME, TaintToleration.NAME,
            LoadAwareScheduling.NAME);

    public record Result(List<Profile> profiles, List<String> notes) {
    }

    private SchedulerConfiguration() {
    }

    /** The default profile: filters NodeResourcesFit, NodeAffinity, TaintToleration, LoadAwareScheduling; score LoadAware. */
    public static Result defaults() {
        try {
            return build(DEFAULT_SCHEDULER_NAME, null, null, 0, "defaults", new ArrayList<>());
        } catch (InvalidInputException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Result parse(JsonNode doc, String where) throws InvalidInputException {
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
        if (profiles.isMissingNode() || profiles.isNull() || profiles.isEmpty()) {
            return build(DEFAULT_SCHEDULER_NAME, null, null, percentage, where, notes);
        }
        if (!profiles.isArray()) {
            throw new InvalidInputException(where + ": profiles must be a list");
        }
        List<Profile> out = new ArrayList<>();
        for (int i = 0; i < profiles.size(); i++) {
            JsonNode p = profiles.get(i);
            String at = where + ": profiles[" + i + "]";
            String name = p.path("schedulerName").asText(DEFAULT_SCHEDULER_NAME);
            out.addAll(build(name, p.get("plugins"), p.get("pluginConfig"), percentage(p, percentage, at), at, notes).profiles());
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
            String where, List<String> notes) throws InvalidInputException {
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
        Set<String> names = new LinkedHashSet<>(filters.keySet());
        names.addAll(scores.keySet());
        Map<String, Plugin> built = new LinkedHashMap<>();
        for (String p : names) {
            built.put(p, create(p, args.get(p), where + ".pluginConfig[" + p + "].args"));
        }
        List<FilterPlugin> filterPlugins = new ArrayList<>();
        for (String p : filters.keySet()) {
            if (built.get(p) instanceof FilterPlugin f) {
                filterPlugins.add(f);
            } else {
                notes.add(where + ": " + p + " has no filter extension; ignored at filter");
            }
        }
        List<Profile.Weighted> scorePlugins = new ArrayList<>();
        for (Map.Entry<String, Long> e : scores.entrySet()) {
            if (built.get(e.getKey()) instanceof ScorePlugin s) {
                scorePlugins.add(new Profile.Weighted(s, e.getValue()));
            } else {
                notes.add(where + ": " + e.getKey() + " has no score extension; ignored at score");
            }
        }
        return new Result(List.of(new Profile(name, filterPlugins, scorePlugins, percentageOfNodesToScore)), notes);
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
                long weight = e.path("weight").asLong(0);
                if (weight < 0) {
                    throw new InvalidInputException(where + ".plugins." + section + ".enabled[" + n + "].weight: must not be negative");
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

    private static Plugin create(String name, JsonNode args, String where) throws InvalidInputException {
        return switch (name) {
            case NodeResourcesFit.NAME -> new NodeResourcesFit();
            case NodeAffinity.NAME -> new NodeAffinity();
            case TaintToleration.NAME -> new TaintToleration();
            case LoadAwareScheduling.NAME -> new LoadAwareScheduling(LoadAwareArgs.parse(args, where));
            default -> throw new IllegalStateException("no factory for " + name);
        };
    }
}
