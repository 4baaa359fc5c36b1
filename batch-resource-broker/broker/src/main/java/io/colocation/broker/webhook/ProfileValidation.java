package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.model.labels.LabelSelector;
import io.colocation.model.labels.LabelSyntax;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What makes a ClusterColocationProfile one the webhook can use, by the rules Koordinator's webhook applies to its
 * fields when a pod is created (docs/koordinator-compatibility.md §14), at two levels:
 * <ul>
 * <li>{@link #unusable}: what Koordinator would turn against every pod the profile could match, a selector that does
 * not compile (Koordinator counts it as a match: {@code operator: in} made a pod of an unlabelled namespace BE) and a
 * probability that is no int32 and no {@code "N%"} (Koordinator refuses every matched pod for {@code "50"}, and cannot
 * decode 4294967396), and a patch that is not an object (it applies to no pod). The pod webhook and
 * {@code webhook explain} skip such a profile and report it; every other rule of Koordinator's stays as it is,
 * the out-of-range probabilities (above 100 always applied, below 0 never) included.</li>
 * <li>{@link #problems}: what the validating webhook ({@code /validate-profile}) refuses when a profile is applied:
 * the above, a probability outside 0 to 100 percent, keys and label values that are not Kubernetes' syntax, suffixes
 * that cannot end a label value and a PriorityClass name that is not a name, so {@code kubectl apply} names each
 * mistake instead of a pod create failing later.</li>
 * </ul>
 * Each problem names its field.
 */
public final class ProfileValidation {
    private static final Pattern SUFFIX = Pattern.compile("[-A-Za-z0-9_.]*");
    private static final int MAX_LABEL_VALUE = 63;

    private ProfileValidation() {
    }

    /** Why the pod webhook cannot use the profile; empty when it can. */
    public static List<String> unusable(ColocationProfile p) {
        List<String> out = new ArrayList<>();
        selector(p.namespaceSelector(), "spec.namespaceSelector", out);
        selector(p.selector(), "spec.selector", out);
        if (p.probability() != null) {
            String problem = Probability.unreadable(p.probability());
            if (problem != null) {
                out.add("spec.probability: " + problem);
            }
        }
        if (p.patch() != null && !p.patch().isObject()) {
            out.add("spec.patch: must be an object (a strategic merge patch of the Pod)");
        }
        return out;
    }

    /** Everything the validating webhook refuses when the profile is applied; empty when it is accepted. */
    public static List<String> problems(ColocationProfile p) {
        List<String> out = new ArrayList<>(unusable(p));
        if (p.probability() != null && Probability.unreadable(p.probability()) == null) {
            String range = Probability.outOfRange(p.probability());
            if (range != null) {
                out.add("spec.probability: " + range);
            }
        }
        keys(p.labels(), "spec.labels", out, true);
        keys(p.annotations(), "spec.annotations", out, false);
        mapping(p.labelKeysMapping(), "spec.labelKeysMapping", out);
        mapping(p.annotationKeysMapping(), "spec.annotationKeysMapping", out);
        p.labelSuffixes().forEach((key, suffix) -> {
            LabelSyntax.keyProblems(key).forEach(problem -> out.add("spec.labelSuffixes: " + problem));
            if (suffix.length() > MAX_LABEL_VALUE || !SUFFIX.matcher(suffix).matches()
                    || !suffix.isEmpty() && !Character.isLetterOrDigit(suffix.charAt(suffix.length() - 1))) {
                out.add("spec.labelSuffixes." + key + ": \"" + suffix + "\" cannot end a label value (at most 63 characters of"
                        + " alphanumerics, '-', '_' or '.', ending with an alphanumeric)");
            }
        });
        if (p.priorityClassName() != null && !p.priorityClassName().isEmpty() && !LabelSyntax.dnsSubdomain(p.priorityClassName())) {
            out.add("spec.priorityClassName: \"" + p.priorityClassName() + "\" is not a PriorityClass name (a DNS subdomain)");
        }
        if (p.patch() != null && p.patch().isObject()) {
            try {
                StrategicMergePatch.apply(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(), p.patch());
            } catch (StrategicMergePatch.Failure e) {
                out.add("spec.patch: " + e.getMessage());
            }
        }
        return out;
    }

    private static void selector(JsonNode selector, String field, List<String> out) {
        if (selector == null) {
            return;
        }
        List<String> problems = LabelSelector.fromJson(selector).problems();
        if (!problems.isEmpty()) {
            out.add(field + ": " + String.join("; ", problems));
        }
    }

    private static void keys(Map<String, String> map, String field, List<String> out, boolean labelValues) {
        map.forEach((k, v) -> {
            LabelSyntax.keyProblems(k).forEach(problem -> out.add(field + ": " + problem));
            if (labelValues) {
                LabelSyntax.valueProblems(v).forEach(problem -> out.add(field + "." + k + ": " + problem));
            }
        });
    }

    private static void mapping(Map<String, String> map, String field, List<String> out) {
        map.forEach((from, to) -> {
            LabelSyntax.keyProblems(from).forEach(problem -> out.add(field + ": " + problem));
            LabelSyntax.keyProblems(to).forEach(problem -> out.add(field + "." + from + ": " + problem));
        });
    }
}
