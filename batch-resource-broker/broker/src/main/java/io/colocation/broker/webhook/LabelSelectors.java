package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A {@code metav1.LabelSelector} as apimachinery's {@code LabelSelectorAsSelector} compiles it and as it matches
 * (docs/koordinator-compatibility.md §14.3). {@link #compile} refuses what apimachinery refuses: an unknown operator,
 * {@code In}/{@code NotIn} without values, {@code Exists}/{@code DoesNotExist} with values, keys or values that are not
 * label syntax, in {@code matchExpressions} and, stricter than apimachinery's unvalidated fast path for a selector of
 * {@code matchLabels} alone, in {@code matchLabels} too. A profile whose selector does not compile is not used
 * ({@link ProfileValidation}), so {@link #matches} sees compiled selectors only.
 */
final class LabelSelectors {
    private static final Pattern NAME = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private LabelSelectors() {
    }

    /** Whether the selector is empty: no matchLabels and no matchExpressions (matches everything). */
    static boolean empty(JsonNode selector) {
        return size(selector.get("matchLabels")) == 0 && size(selector.get("matchExpressions")) == 0;
    }

    private static int size(JsonNode n) {
        return n == null || n.isNull() ? 0 : n.size();
    }

    /** Why the selector does not compile, in apimachinery's words; null when it does. */
    static String compile(JsonNode selector) {
        List<String> problems = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = selector.path("matchLabels").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            problems.addAll(keyProblems(e.getKey()));
            problems.addAll(valueProblems(e.getValue().asText()));
        }
        for (JsonNode r : selector.path("matchExpressions")) {
            String operator = r.path("operator").asText("");
            List<String> values = values(r);
            problems.addAll(keyProblems(r.path("key").asText("")));
            switch (operator) {
                case "In", "NotIn" -> {
                    if (values.isEmpty()) {
                        problems.add("for 'in', 'notin' operators, values set can't be empty");
                    }
                    values.forEach(v -> problems.addAll(valueProblems(v)));
                }
                case "Exists", "DoesNotExist" -> {
                    if (!values.isEmpty()) {
                        problems.add("values set must be empty for exists and does not exist");
                    }
                }
                default -> problems.add("\"" + operator + "\" is not a valid label selector operator (In, NotIn, Exists,"
                        + " DoesNotExist)");
            }
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    /** Whether the labels match a selector that compiles; every term must hold. */
    static boolean matches(JsonNode selector, Map<String, String> labels) {
        for (Iterator<Map.Entry<String, JsonNode>> it = selector.path("matchLabels").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().asText().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (JsonNode r : selector.path("matchExpressions")) {
            String have = labels.get(r.path("key").asText(""));
            List<String> values = values(r);
            boolean holds = switch (r.path("operator").asText("")) {
                case "In" -> have != null && values.contains(have);
                case "NotIn" -> have == null || !values.contains(have);
                case "Exists" -> have != null;
                case "DoesNotExist" -> have == null;
                default -> false;
            };
            if (!holds) {
                return false;
            }
        }
        return true;
    }

    private static List<String> values(JsonNode requirement) {
        List<String> values = new ArrayList<>();
        requirement.path("values").forEach(v -> values.add(v.asText()));
        return values;
    }

    static boolean dnsSubdomain(String name) {
        return name.length() <= 253 && DNS_SUBDOMAIN.matcher(name).matches();
    }

    /** apimachinery's {@code IsQualifiedName}: an optional DNS-subdomain prefix and a name of up to 63 characters. */
    static List<String> keyProblems(String key) {
        String prefix = null;
        String name = key;
        int slash = key.indexOf('/');
        if (slash >= 0) {
            prefix = key.substring(0, slash);
            name = key.substring(slash + 1);
        }
        List<String> out = new ArrayList<>();
        if (prefix != null && (prefix.isEmpty() || prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches())) {
            out.add("key \"" + key + "\": prefix part must be a DNS subdomain");
        }
        if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches() || name.contains("/")) {
            out.add("key \"" + key + "\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start"
                    + " and end with an alphanumeric character (at most 63)");
        }
        return out;
    }

    /** apimachinery's {@code IsValidLabelValue}: empty, or up to 63 characters of label syntax. */
    static List<String> valueProblems(String value) {
        return value.length() <= 63 && NAME.matcher(value).matches() ? List.of()
                : List.of("value \"" + value + "\": a valid label must be an empty string or consist of alphanumeric characters,"
                        + " '-', '_' or '.', and must start and end with an alphanumeric character (at most 63)");
    }
}
