package io.colocation.model.labels;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Kubernetes label selector ({@code metav1.LabelSelector}): every {@code matchLabels} pair and every
 * {@code matchExpressions} requirement must hold. The one matcher of the repository: the colocation and NodeSLO node
 * configs, the ClusterColocationProfile webhook and the scheduler's node affinity ({@link Requirement#holds}) all
 * match through it. {@link #problems} is what apimachinery's {@code LabelSelectorAsSelector} refuses.
 */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions) {

    public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

    public LabelSelector {
        matchLabels = Map.copyOf(matchLabels);
        matchExpressions = List.copyOf(matchExpressions);
    }

    /**
     * One requirement. Operators are label selectors' {@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist}
     * and, for node selectors, {@code Gt} and {@code Lt}; an unknown one matches nothing.
     */
    public record Requirement(String key, String operator, List<String> values) {
        public Requirement {
            values = List.copyOf(values);
        }

        public boolean matches(Map<String, String> labels) {
            return holds(operator, labels.get(key), values);
        }

        /** Whether a label's value ({@code null} when the label is absent) satisfies the operator over the values. */
        public static boolean holds(String operator, String value, List<String> values) {
            if (operator == null) {
                return false;
            }
            return switch (operator) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                case "Gt", "Lt" -> value != null && values.size() == 1 && compare(value, values.get(0), operator);
                default -> false;
            };
        }

        private static boolean compare(String value, String bound, String operator) {
            try {
                long v = Long.parseLong(value);
                long b = Long.parseLong(bound);
                return operator.equals("Gt") ? v > b : v < b;
            } catch (NumberFormatException e) {
                return false;
            }
        }

        /** Why apimachinery would refuse this requirement of a label selector, in its words; empty when it would not. */
        public List<String> problems() {
            List<String> problems = new ArrayList<>(LabelSyntax.keyProblems(key));
            switch (operator == null ? "" : operator) {
                case "In", "NotIn" -> {
                    if (values.isEmpty()) {
                        problems.add("for 'in', 'notin' operators, values set can't be empty");
                    }
                    values.forEach(v -> problems.addAll(LabelSyntax.valueProblems(v)));
                }
                case "Exists", "DoesNotExist" -> {
                    if (!values.isEmpty()) {
                        problems.add("values set must be empty for exists and does not exist");
                    }
                }
                default -> problems.add("\"" + operator + "\" is not a valid label selector operator (In, NotIn, Exists,"
                        + " DoesNotExist)");
            }
            return problems;
        }
    }

    /** Whether the labels ({@code null} as none) match; an empty selector matches everything. */
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

    /** No matchLabels and no matchExpressions. */
    public boolean isEmpty() {
        return matchLabels.isEmpty() && matchExpressions.isEmpty();
    }

    /**
     * Why apimachinery would not compile this selector, in its words; empty when it would. Stricter than its
     * unvalidated fast path for a selector of {@code matchLabels} alone: those keys and values are checked too.
     */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        matchLabels.forEach((key, value) -> {
            problems.addAll(LabelSyntax.keyProblems(key));
            problems.addAll(LabelSyntax.valueProblems(value));
        });
        matchExpressions.forEach(r -> problems.addAll(r.problems()));
        return problems;
    }

    /**
     * The selector in a JSON tree as an API object carries it, read as apimachinery reads it once its JSON types are
     * checked: scalars as their text, absent parts empty.
     */
    public static LabelSelector fromJson(JsonNode selector) {
        if (selector == null || selector.isNull()) {
            return EVERYTHING;
        }
        Map<String, String> matchLabels = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = selector.path("matchLabels").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            matchLabels.put(e.getKey(), e.getValue().asText());
        }
        List<Requirement> requirements = new ArrayList<>();
        for (JsonNode r : selector.path("matchExpressions")) {
            List<String> values = new ArrayList<>();
            r.path("values").forEach(v -> values.add(v.asText()));
            requirements.add(new Requirement(r.path("key").asText(""), r.path("operator").asText(""), values));
        }
        return new LabelSelector(matchLabels, requirements);
    }
}
