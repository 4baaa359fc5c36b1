package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A {@code metav1.LabelSelector} as Koordinator's webhook compiles and matches it (KOORDINATOR-COMPAT.md §14.3): one with
 * {@code matchLabels} alone takes apimachinery's unvalidated fast path; one with {@code matchExpressions} goes through
 * {@code LabelSelectorAsSelector}, which refuses an unknown operator, {@code In}/{@code NotIn} without values,
 * {@code Exists}/{@code DoesNotExist} with values, and keys or values that are not label syntax. The caller decides what
 * a selector that does not compile means (the webhook counts it as a match).
 */
final class LabelSelectors {
    private static final Pattern NAME = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    /** A selector's verdict: it matched, it did not, or it does not compile ({@code error} says why). */
    record Verdict(boolean matched, String error) {
        static final Verdict MATCH = new Verdict(true, null);
        static final Verdict NO_MATCH = new Verdict(false, null);
    }

    private LabelSelectors() {
    }

    /** Whether the selector is empty: no matchLabels and no matchExpressions (matches everything). */
    static boolean empty(JsonNode selector) {
        return size(selector.get("matchLabels")) == 0 && size(selector.get("matchExpressions")) == 0;
    }

    private static int size(JsonNode n) {
        return n == null || n.isNull() ? 0 : n.size();
    }

    static Verdict match(JsonNode selector, Map<String, String> labels) {
        JsonNode matchLabels = selector.path("matchLabels");
        JsonNode expressions = selector.path("matchExpressions");
        boolean validated = size(selector.get("matchExpressions")) > 0;
        List<String> problems = new ArrayList<>();
        boolean matched = true;
        for (Iterator<Map.Entry<String, JsonNode>> it = matchLabels.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String value = e.getValue().asText();
            if (validated) {
                problems.addAll(keyProblems(e.getKey()));
                problems.addAll(valueProblems(value));
            }
            matched &= value.equals(labels.get(e.getKey()));
        }
        for (JsonNode r : expressions) {
            String key = r.path("key").asText("");
            String operator = r.path("operator").asText("");
            List<String> values = new ArrayList<>();
            r.path("values").forEach(v -> values.add(v.asText()));
            problems.addAll(keyProblems(key));
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
                default -> problems.add("\"" + operator + "\" is not a valid label selector operator");
            }
            String have = labels.get(key);
            matched &= switch (operator) {
                case "In" -> have != null && values.contains(have);
                case "NotIn" -> have == null || !values.contains(have);
                case "Exists" -> have != null;
                case "DoesNotExist" -> have == null;
                default -> false;
            };
        }
        if (!problems.isEmpty()) {
            return new Verdict(false, String.join("; ", problems));
        }
        return matched ? Verdict.MATCH : Verdict.NO_MATCH;
    }

    /** apimachinery's {@code IsQualifiedName}: an optional DNS-subdomain prefix and a name of up to 63 characters. */
    private static List<String> keyProblems(String key) {
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
    private static List<String> valueProblems(String value) {
        return value.length() <= 63 && NAME.matcher(value).matches() ? List.of()
                : List.of("value \"" + value + "\": a valid label must be an empty string or consist of alphanumeric characters,"
                        + " '-', '_' or '.', and must start and end with an alphanumeric character (at most 63)");
    }
}
