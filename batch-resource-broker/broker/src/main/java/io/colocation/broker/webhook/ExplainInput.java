package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.model.document.KubeDocuments;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The input of {@code colocation webhook explain} (docs/koordinator-compatibility.md §14.11): exactly one {@code v1} Pod and any
 * ClusterColocationProfile, Namespace and PriorityClass, together the whole cluster; JSON types and quantity syntax
 * checked, nothing defaulted. An error names the file, the document, the object and the field.
 */
record ExplainInput(ObjectNode pod, List<ColocationProfile> profiles, Map<String, Map<String, String>> namespaces,
        Map<String, PodMutation.PriorityClassInfo> priorityClasses) implements PodMutation.Cluster {

    /** One Pod and a few cluster objects: a runaway input stops here. */
    static final long MAX_INPUT_BYTES = 16L << 20;
    private static final Map<String, String> KINDS = Map.of("Pod", "v1", ColocationProfile.KIND, ColocationProfile.API_VERSION,
            "Namespace", "v1", "PriorityClass", "scheduling.k8s.io/v1");

    static ExplainInput read(List<String> files, InputStream stdin) throws InvalidInputException {
        ObjectNode pod = null;
        String podAt = null;
        Map<String, ColocationProfile> profiles = new LinkedHashMap<>();
        Map<String, Map<String, String>> namespaces = new LinkedHashMap<>();
        Map<String, PodMutation.PriorityClassInfo> classes = new LinkedHashMap<>();
        for (String file : files) {
            for (KubeDocuments.Sourced doc : KubeDocuments.read(file, stdin, MAX_INPUT_BYTES, "give one Pod (an API server stores"
                    + " objects of at most 1.5 MiB) and the profiles, Namespaces and PriorityClasses it needs")) {
                JsonNode o = doc.object();
                String at = doc.file() + ": " + doc.position();
                if (doc.heldBy() != null && !doc.heldBy().equals("v1 List")) {
                    throw new InvalidInputException(at + ": only a v1 List holds objects here, not " + doc.heldBy());
                }
                String apiVersion = o.path("apiVersion").asText("");
                String kind = o.path("kind").asText("");
                if (apiVersion.isEmpty() || kind.isEmpty()) {
                    throw new InvalidInputException(at + ": " + (apiVersion.isEmpty() ? "apiVersion" : "kind") + ": missing");
                }
                if (!apiVersion.equals(KINDS.get(kind))) {
                    throw new InvalidInputException(at + " (" + kind + "): " + apiVersion + " " + kind + " is not an input of webhook"
                            + " explain (v1 Pod, " + ColocationProfile.API_VERSION + " " + ColocationProfile.KIND
                            + ", v1 Namespace, scheduling.k8s.io/v1 PriorityClass)");
                }
                JsonNode meta = o.path("metadata");
                if (!meta.isMissingNode() && !meta.isObject()) {
                    throw new InvalidInputException(at + " (" + kind + "): metadata: must be an object");
                }
                String name = meta.path("name").isTextual() ? meta.path("name").asText() : "";
                String here = at + " (" + kind + (name.isEmpty() ? "" : "/" + name) + ")";
                switch (kind) {
                    case "Pod" -> {
                        if (pod != null) {
                            throw new InvalidInputException(here + ": a second Pod (the first is " + podAt + "); give exactly one");
                        }
                        SubmittedPod.check(o, here);
                        pod = (ObjectNode) o;
                        podAt = here;
                    }
                    case ColocationProfile.KIND -> {
                        ColocationProfile p = ColocationProfile.read(o, here);
                        if (profiles.put(p.name(), p) != null) {
                            throw new InvalidInputException(here + ": metadata.name: the ClusterColocationProfile " + name + " is given twice");
                        }
                    }
                    case "Namespace" -> {
                        requireName(name, here);
                        Map<String, String> labels = ColocationProfile.stringMap(meta, "labels", here + ": metadata.labels");
                        if (namespaces.put(name, labels) != null) {
                            throw new InvalidInputException(here + ": metadata.name: the Namespace " + name + " is given twice");
                        }
                    }
                    default -> {
                        requireName(name, here);
                        if (classes.put(name, priorityClass(o, here)) != null) {
                            throw new InvalidInputException(here + ": metadata.name: the PriorityClass " + name + " is given twice");
                        }
                    }
                }
            }
        }
        if (pod == null) {
            throw new InvalidInputException("no Pod in the input (" + String.join(", ", files) + "); give exactly one");
        }
        return new ExplainInput(pod, List.copyOf(profiles.values()), namespaces, classes);
    }

    private static void requireName(String name, String here) throws InvalidInputException {
        if (name.isEmpty()) {
            throw new InvalidInputException(here + ": metadata.name: missing");
        }
    }

    private static PodMutation.PriorityClassInfo priorityClass(JsonNode o, String here) throws InvalidInputException {
        JsonNode value = o.get("value");
        int v = 0;
        if (value != null && !value.isNull()) {
            if (!value.isIntegralNumber() || !value.canConvertToInt()) {
                throw new InvalidInputException(here + ": value: must be an int32");
            }
            v = value.intValue();
        }
        JsonNode policy = o.get("preemptionPolicy");
        if (policy != null && !policy.isNull() && !policy.isTextual()) {
            throw new InvalidInputException(here + ": preemptionPolicy: must be a string");
        }
        return new PodMutation.PriorityClassInfo(v, policy == null || policy.isNull() ? null : policy.asText());
    }

    @Override
    public List<ColocationProfile> profiles() {
        return new ArrayList<>(profiles);
    }

    @Override
    public Optional<Map<String, String>> namespaceLabels(String namespace) {
        return Optional.ofNullable(namespaces.get(namespace));
    }

    @Override
    public Optional<PodMutation.PriorityClassInfo> priorityClass(String name) {
        return Optional.ofNullable(priorityClasses.get(name));
    }
}
