package io.colocation.model.config;

import java.util.List;
import java.util.Map;

/** A Kubernetes label selector: matchLabels and matchExpressions (In, NotIn, Exists, DoesNotExist). */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions) {

    public record Requirement(String key, String operator, List<String> values) {
        boolean matches(Map<String, String> labels) {
            String value = labels.get(key);
            return switch (operator) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> labels.containsKey(key);
                case "DoesNotExist" -> !labels.containsKey(key);
                default -> false;
            };
        }
    }

    public boolean matches(Map<String, String> labels) {
        Map<String, String> l = labels == null ? Map.of() : labels;
        for (Map.Entry<String, String> e : matchLabels.entrySet()) {
            if (!e.getValue().equals(l.get(e.getKey()))) {
                return false;
            }
        }
        for (Requirement r : matchExpressions) {
            if (!r.matches(l)) {
                return false;
            }
        }
        return true;
    }
}
