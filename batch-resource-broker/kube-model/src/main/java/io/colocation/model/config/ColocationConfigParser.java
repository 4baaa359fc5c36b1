package io.colocation.model.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

    static LabelSelector selector(JsonNode node, String where, List<String> problems) {
        if (node == null || !node.isObject()) {
            problems.add(where + " is required and must be an object");
            return new LabelSelector(Map.of(), List.of());
        }
        JsonNode labels = node.get("matchLabels");
        Map<String, String> matchLabels = new LinkedHashMap<>();
        if (labels == null || !labels.isObject()) {
            // Koordinator's IsNodeColocationCfgValid rejects a selector without matchLabels.
            problems.add(where + ".matchLabels is required (Koordinator ignores a node config without it)");
        } else {
            labels.fields().forEachRemaining(e -> {
                if (!e.getValue().isTextual()) {
                    problems.add(where + ".matchLabels." + e.getKey() + "=" + e.getValue() + " must be a string");
                } else {
                    matchLabels.put(e.getKey(), e.getValue().textValue());
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
                    String at = where + ".matchExpressions[" + i + "]";
                    String key = e.path("key").asText("");
                    String op = e.path("operator").asText("");
                    List<String> values = new ArrayList<>();
                    e.path("values").forEach(v -> values.add(v.asText()));
                    boolean needsValues = op.equals("In") || op.equals("NotIn");
                    boolean noValues = op.equals("Exists") || op.equals("DoesNotExist");
                    if (key.isEmpty()) {
                        problems.add(at + ".key is required");
                    } else if (!needsValues && !noValues) {
                        problems.add(at + ".operator=" + e.path("operator") + " must be In, NotIn, Exists or DoesNotExist");
                    } else if (needsValues && values.isEmpty()) {
                        problems.add(at + ".values must not be empty for " + op);
                    } else if (noValues && !values.isEmpty()) {
                        problems.add(at + ".values must be empty for " + op);
                    } else {
                        requirements.add(new LabelSelector.Requirement(key, op, List.copyOf(values)));
                    }
                }
            }
        }
        return new LabelSelector(matchLabels, List.copyOf(requirements));
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
