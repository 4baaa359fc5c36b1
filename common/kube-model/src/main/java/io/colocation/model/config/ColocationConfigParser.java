package io.colocation.model.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.model.labels.LabelSelector;
import io.colocation.model.labels.LabelSyntax;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the {@code colocation-config} JSON (docs/koordinator-compatibility.md §2.2): cluster fields overlaid on the
 * defaults, {@code nodeConfigs} overlaid on the cluster strategy. Unlike Koordinator, which silently
 * drops an invalid node entry, every invalid value is reported; the broker keeps its last good
 * configuration and the CLI fails.
 */
public final class ColocationConfigParser {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ColocationConfigParser() {
    }

    /** Parses the key's value; {@code source} names it in errors (for example the ConfigMap and key). */
    public static ColocationConfig parse(String json, String source) throws InvalidConfigException {
        if (json == null || json.isBlank()) {
            return ColocationConfig.defaults();
        }
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidConfigException(source, List.of("malformed JSON: " + e.getOriginalMessage()
                    + " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr()));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidConfigException(source, List.of("must be a JSON object, found " + (root == null ? "nothing" : root.getNodeType())));
        }
        List<String> problems = new ArrayList<>();
        ColocationStrategy cluster = ColocationStrategy.defaults().overlay(new ColocationStrategyReader(problems, "").read(root));
        List<ColocationConfig.NodeConfig> nodeConfigs = new ArrayList<>();
        JsonNode nodes = root.get("nodeConfigs");
        if (nodes != null && !nodes.isNull()) {
            if (!nodes.isArray()) {
                problems.add("nodeConfigs=" + nodes + " must be a list");
            } else {
                for (int i = 0; i < nodes.size(); i++) {
                    String prefix = "nodeConfigs[" + i + "].";
                    JsonNode entry = nodes.get(i);
                    int problemsBefore = problems.size();
                    ColocationStrategy own = new ColocationStrategyReader(problems, prefix).read(entry);
                    if (!entry.isObject()) {
                        continue;
                    }
                    LabelSelector selector = selector(entry.get("nodeSelector"), prefix + "nodeSelector", problems);
                    if (own.equals(ColocationStrategy.EMPTY) && problems.size() == problemsBefore) {
                        problems.add(prefix + " sets no strategy field (Koordinator ignores such an entry)");
                    }
                    JsonNode name = entry.get("name");
                    nodeConfigs.add(new ColocationConfig.NodeConfig(name != null && name.isTextual() ? name.textValue() : "",
                            selector, cluster.overlay(own)));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(source, problems);
        }
        return new ColocationConfig(cluster, List.copyOf(nodeConfigs));
    }

    /**
     * A node config's {@code nodeSelector}: Koordinator requires {@code matchLabels} ({@code IsNodeColocationCfgValid})
     * and compiles the selector with apimachinery, whose refusals {@link LabelSyntax} and
     * {@link LabelSelector.Requirement#problems} give.
     */
    static LabelSelector selector(JsonNode node, String where, List<String> problems) {
        if (node == null || !node.isObject()) {
            problems.add(where + " is required and must be an object");
            return LabelSelector.EVERYTHING;
        }
        JsonNode labels = node.get("matchLabels");
        Map<String, String> matchLabels = new LinkedHashMap<>();
        if (labels == null || !labels.isObject()) {
            problems.add(where + ".matchLabels is required (Koordinator ignores a node config without it)");
        } else {
            labels.fields().forEachRemaining(e -> {
                if (!e.getValue().isTextual()) {
                    problems.add(where + ".matchLabels." + e.getKey() + "=" + e.getValue() + " must be a string");
                } else {
                    matchLabels.put(e.getKey(), e.getValue().textValue());
                    LabelSyntax.keyProblems(e.getKey()).forEach(problem -> problems.add(where + ".matchLabels: " + problem));
                    LabelSyntax.valueProblems(e.getValue().textValue())
                            .forEach(problem -> problems.add(where + ".matchLabels." + e.getKey() + ": " + problem));
                }
            });
        }
        List<LabelSelector.Requirement> requirements = new ArrayList<>();
        JsonNode expressions = node.get("matchExpressions");
        if (expressions != null && !expressions.isNull()) {
            if (!expressions.isArray()) {
                problems.add(where + ".matchExpressions must be a list");
            } else {
                for (int i = 0; i < expressions.size(); i++) {
                    JsonNode e = expressions.get(i);
                    List<String> values = new ArrayList<>();
                    e.path("values").forEach(v -> values.add(v.asText()));
                    LabelSelector.Requirement requirement =
                            new LabelSelector.Requirement(e.path("key").asText(""), e.path("operator").asText(""), values);
                    String at = where + ".matchExpressions[" + i + "]: ";
                    requirement.problems().forEach(problem -> problems.add(at + problem));
                    requirements.add(requirement);
                }
            }
        }
        return new LabelSelector(matchLabels, requirements);
    }

    /** Reads a single strategy object (for example the node annotation), without defaults. */
    public static ColocationStrategy parseStrategy(String json, String source) throws InvalidConfigException {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidConfigException(source, List.of("malformed JSON: " + e.getOriginalMessage()));
        }
        List<String> problems = new ArrayList<>();
        ColocationStrategy strategy = new ColocationStrategyReader(problems, "").read(root);
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(source, problems);
        }
        return strategy;
    }
}
