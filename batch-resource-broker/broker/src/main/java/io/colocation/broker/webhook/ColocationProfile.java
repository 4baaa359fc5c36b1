package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@code config.koordinator.sh/v1alpha1} ClusterColocationProfile (docs/koordinator-compatibility.md §14.1) as the webhook reads
 * it, its JSON types checked field by field: a selector is null when absent, a map is empty when absent, the
 * probability and the patch are kept as written; what makes it unusable is in {@link #problems()}.
 *
 * @param skipUpdateResources its metadata carries {@code config.koordinator.sh/skip-update-resources}
 * @param problems            why the pod webhook cannot use it ({@link ProfileValidation#unusable}); empty when it can
 */
public record ColocationProfile(String name, boolean skipUpdateResources, JsonNode namespaceSelector, JsonNode selector,
        JsonNode probability, String qosClass, String priorityClassName, Integer koordinatorPriority, Map<String, String> labels,
        Map<String, String> annotations, Map<String, String> labelKeysMapping, Map<String, String> annotationKeysMapping,
        Map<String, String> labelSuffixes, String schedulerName, JsonNode patch, java.util.List<String> problems) {
    public static final String API_VERSION = "config.koordinator.sh/v1alpha1";
    public static final String KIND = "ClusterColocationProfile";
    public static final String ANNOTATION_SKIP_UPDATE_RESOURCES = "config.koordinator.sh/skip-update-resources";
    private static final java.util.List<String> QOS = java.util.List.of("LSE", "LSR", "LS", "BE", "SYSTEM");

    /** Reads one profile; {@code where} prefixes every error ({@code "file: document 2 (ClusterColocationProfile/p)"}). */
    public static ColocationProfile read(JsonNode object, String where) throws InvalidInputException {
        JsonNode metadata = object.path("metadata");
        String name = metadata.path("name").asText("");
        if (name.isEmpty()) {
            throw new InvalidInputException(where + ": metadata.name: missing");
        }
        Map<String, String> profileAnnotations = stringMap(metadata, "annotations", where + ": metadata.annotations");
        JsonNode spec = object.path("spec");
        if (!spec.isMissingNode() && !spec.isNull() && !spec.isObject()) {
            throw new InvalidInputException(where + ": spec: must be an object");
        }
        String at = where + ": spec.";
        String qos = string(spec, "qosClass", at);
        if (qos != null && !QOS.contains(qos)) {
            throw new InvalidInputException(at + "qosClass: \"" + qos + "\" is not one of " + QOS + " (the CRD's enum)");
        }
        JsonNode probability = spec.get("probability");
        if (probability != null && !probability.isNull() && !probability.isTextual() && !probability.isIntegralNumber()) {
            throw new InvalidInputException(at + "probability: must be an integer or a string such as \"50%\"");
        }
        JsonNode priority = spec.get("koordinatorPriority");
        Integer koordinatorPriority = null;
        if (priority != null && !priority.isNull()) {
            if (!priority.isIntegralNumber() || !priority.canConvertToInt()) {
                throw new InvalidInputException(at + "koordinatorPriority: must be an int32");
            }
            koordinatorPriority = priority.intValue();
        }
        JsonNode patch = spec.get("patch");
        ColocationProfile read = new ColocationProfile(name, profileAnnotations.containsKey(ANNOTATION_SKIP_UPDATE_RESOURCES),
                selector(spec, "namespaceSelector", at), selector(spec, "selector", at),
                probability == null || probability.isNull() ? null : probability, qos, string(spec, "priorityClassName", at),
                koordinatorPriority, stringMap(spec, "labels", at + "labels"), stringMap(spec, "annotations", at + "annotations"),
                stringMap(spec, "labelKeysMapping", at + "labelKeysMapping"),
                stringMap(spec, "annotationKeysMapping", at + "annotationKeysMapping"),
                stringMap(spec, "labelSuffixes", at + "labelSuffixes"), string(spec, "schedulerName", at),
                patch == null || patch.isNull() ? null : patch, java.util.List.of());
        return read.withProblems(ProfileValidation.unusable(read));
    }

    private ColocationProfile withProblems(java.util.List<String> found) {
        return new ColocationProfile(name, skipUpdateResources, namespaceSelector, selector, probability, qosClass, priorityClassName,
                koordinatorPriority, labels, annotations, labelKeysMapping, annotationKeysMapping, labelSuffixes, schedulerName, patch,
                java.util.List.copyOf(found));
    }

    /** Whether the webhook can use it. */
    public boolean usable() {
        return problems.isEmpty();
    }

    private static String string(JsonNode parent, String field, String at) throws InvalidInputException {
        JsonNode v = parent.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new InvalidInputException(at + field + ": must be a string");
        }
        return v.asText();
    }

    /** A map of strings; empty when absent. */
    static Map<String, String> stringMap(JsonNode parent, String field, String at) throws InvalidInputException {
        JsonNode v = parent.get(field);
        Map<String, String> out = new LinkedHashMap<>();
        if (v == null || v.isNull()) {
            return out;
        }
        if (!v.isObject()) {
            throw new InvalidInputException(at + ": must be a map of strings");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new InvalidInputException(at + "." + e.getKey() + ": must be a string");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    /** A LabelSelector's JSON shape: matchLabels a map of strings, matchExpressions a list of {key, operator, values}. */
    private static JsonNode selector(JsonNode spec, String field, String at) throws InvalidInputException {
        JsonNode s = spec.get(field);
        if (s == null || s.isNull()) {
            return null;
        }
        String here = at + field;
        if (!s.isObject()) {
            throw new InvalidInputException(here + ": must be a label selector (matchLabels, matchExpressions)");
        }
        stringMap(s, "matchLabels", here + ".matchLabels");
        JsonNode expressions = s.get("matchExpressions");
        if (expressions != null && !expressions.isNull()) {
            if (!expressions.isArray()) {
                throw new InvalidInputException(here + ".matchExpressions: must be a list");
            }
            for (int i = 0; i < expressions.size(); i++) {
                JsonNode r = expressions.get(i);
                String ri = here + ".matchExpressions[" + i + "]";
                if (!r.isObject()) {
                    throw new InvalidInputException(ri + ": must be an object (key, operator, values)");
                }
                string(r, "key", ri + ".");
                string(r, "operator", ri + ".");
                JsonNode values = r.get("values");
                if (values != null && !values.isNull()) {
                    if (!values.isArray()) {
                        throw new InvalidInputException(ri + ".values: must be a list of strings");
                    }
                    for (int j = 0; j < values.size(); j++) {
                        if (!values.get(j).isTextual()) {
                            throw new InvalidInputException(ri + ".values[" + j + "]: must be a string");
                        }
                    }
                }
            }
        }
        return s;
    }
}
