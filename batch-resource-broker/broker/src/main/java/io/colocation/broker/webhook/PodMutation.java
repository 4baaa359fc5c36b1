package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.api.KoordinatorKeys;
import io.colocation.model.TypedObjects;
import io.colocation.model.labels.LabelSelector;
import io.colocation.model.labels.LabelSyntax;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The create path of Koordinator's pod-mutating webhook (docs/koordinator-compatibility.md §14.2–§14.7) as a pure function of the
 * submitted Pod and what the cluster holds: stage 1, ClusterColocationProfile (matching on the pod as submitted, name
 * order, probability, each profile's mutations, then the extended-resource conversion), and stage 2, the
 * {@code node.koordinator.sh/extended-resource-spec} annotation. The broker's webhook and {@code colocation webhook
 * explain} both run it.
 */
public final class PodMutation {
    static final String LABEL_QOS = KoordinatorKeys.LABEL_QOS_CLASS;
    static final String LABEL_PRIORITY = "koordinator.sh/priority";
    /**
     * Init, regular and ephemeral containers a pod may have here: the webhook's work grows with them, and no workload
     * it converts comes near (the API server's 1.5 MiB object limit allows about 16,000 tiny ones).
     */
    public static final int MAX_CONTAINERS = 1000;

    /** The Koordinator feature gates that change this mutation (§14.8); both default to false. */
    public record Gates(boolean skipMutatingResources, boolean disableExtendedResourceSpec) {
        public static final Gates DEFAULTS = new Gates(false, false);

        /**
         * koord-manager's {@code --feature-gates} syntax, {@code NAME=BOOL[,NAME=BOOL]...}; gates not named keep their
         * default, an empty string is every default.
         */
        public static Gates parse(String spec) throws InvalidInputException {
            boolean skip = false;
            boolean noSpec = false;
            for (String gate : spec.isEmpty() ? new String[0] : spec.split(",", -1)) {
                String[] kv = gate.trim().split("=", -1);
                if (kv.length != 2 || !(kv[1].equals("true") || kv[1].equals("false"))) {
                    throw new InvalidInputException("\"" + gate + "\" is not NAME=true or NAME=false");
                }
                boolean on = kv[1].equals("true");
                switch (kv[0]) {
                    case "ColocationProfileSkipMutatingResources" -> skip = on;
                    case "DisableExtendedResourceSpec" -> noSpec = on;
                    default -> throw new InvalidInputException("unknown gate " + kv[0]
                            + " (known: ColocationProfileSkipMutatingResources, DisableExtendedResourceSpec)");
                }
            }
            return new Gates(skip, noSpec);
        }
    }

    /** A PriorityClass as the webhook reads it: its value and preemption policy (null: none). */
    public record PriorityClassInfo(int value, String preemptionPolicy) {
    }

    /** What the webhook reads of the cluster. */
    public interface Cluster {
        /** Every profile (§14.3: listed from the informer's cache). */
        List<ColocationProfile> profiles() throws Denied;

        /** The labels of the Namespace, empty when it cannot be read (then a selector on it counts as matched). */
        Optional<Map<String, String>> namespaceLabels(String namespace);

        /** The PriorityClass, empty when there is none. */
        Optional<PriorityClassInfo> priorityClass(String name);
    }

    /** Koordinator's {@code rand.Intn(100)}: 0..99. */
    @FunctionalInterface
    public interface Draws {
        int next();
    }

    /**
     * The pod is refused: with Koordinator's text and its status 500 where Koordinator refuses it, or with 400 where the
     * pod itself is what cannot be admitted (past the container cap, a quantity beyond 64 bits) and no retry can help.
     */
    public static final class Denied extends Exception {
        private static final long serialVersionUID = 1L;
        private final int code;

        public Denied(String message) {
            this(message, 500);
        }

        Denied(String message, int code) {
            super(message);
            this.code = code;
        }

        /** The HTTP status of the refusal, which the API server returns to the client. */
        public int code() {
            return code;
        }
    }

    /** The mutated pod, whether anything changed, and what is worth knowing (selector errors counted as matches, draws). */
    public record Result(ObjectNode pod, boolean changed, List<String> notes) {
    }

    private PodMutation() {
    }

    /**
     * @param submitted        the pod as the API server passes it (not changed)
     * @param requestNamespace the admission request's namespace, used when the pod has none (and removed again)
     */
    public static Result mutate(ObjectNode submitted, String requestNamespace, Cluster cluster, Gates gates, Draws draws)
            throws Denied {
        int containers = containers(submitted);
        if (containers > MAX_CONTAINERS) {
            throw new Denied("the pod has " + containers + " containers (init, regular and ephemeral); the colocation webhook admits"
                    + " pods of at most " + MAX_CONTAINERS, 400);
        }
        ObjectNode pod = submitted.deepCopy();
        List<String> notes = new ArrayList<>();
        ObjectNode metadata = object(pod, "metadata");
        boolean namespaceAdded = metadata.path("namespace").asText("").isEmpty();
        if (namespaceAdded) {
            metadata.put("namespace", requestNamespace);
        }
        pod = profiles(pod, cluster, gates, draws, notes);
        if (!gates.disableExtendedResourceSpec()) {
            ExtendedResourceSpec.annotate(pod);
        }
        if (namespaceAdded) {
            ((ObjectNode) pod.get("metadata")).remove("namespace");
        }
        return new Result(pod, !pod.equals(submitted), List.copyOf(notes));
    }

    /** Stage 1. */
    private static ObjectNode profiles(ObjectNode pod, Cluster cluster, Gates gates, Draws draws, List<String> notes) throws Denied {
        List<ColocationProfile> all = cluster.profiles();
        if (all.isEmpty()) {
            return pod;
        }
        String namespace = pod.path("metadata").path("namespace").asText();
        Map<String, String> podLabels = labels(pod);
        List<ColocationProfile> matched = new ArrayList<>();
        for (ColocationProfile p : all) {
            if (!p.usable()) {
                notes.add("profile " + p.name() + " is not used (the validating webhook refuses it): " + String.join("; ", p.problems()));
                continue;
            }
            if (matchesNamespace(p, namespace, cluster, notes) && matchesPod(p, podLabels)) {
                matched.add(p);
            }
        }
        if (matched.isEmpty()) {
            return pod;
        }
        matched.sort(Comparator.comparing(ColocationProfile::name));
        boolean skipResources = false;
        for (ColocationProfile p : matched) {
            skipResources |= p.skipUpdateResources();
            int percent = Probability.percent(p.probability());
            if (percent == 0) {
                notes.add("profile " + p.name() + ": probability 0, not applied");
                continue;
            }
            if (percent != 100) {
                int draw = draws.next();
                if (draw > percent) {
                    notes.add("profile " + p.name() + ": probability " + percent + "%, draw " + draw + ": not applied");
                    continue;
                }
                notes.add("profile " + p.name() + ": probability " + percent + "%, draw " + draw + ": applied");
            }
            ObjectNode before = pod.deepCopy();
            pod = apply(pod, p, cluster);
            String invalid = invalidLabel(before, pod);
            if (invalid != null) {
                notes.add("profile " + p.name() + " is not applied: it would make " + invalid + ", which the API server refuses");
                pod = before;
            }
        }
        if (skipResources) {
            notes.add("a matched profile carries " + ColocationProfile.ANNOTATION_SKIP_UPDATE_RESOURCES + ": resources not converted");
        } else if (gates.skipMutatingResources()) {
            notes.add("feature gate ColocationProfileSkipMutatingResources: resources not converted");
        } else {
            ResourceConversion.convert(pod, decode(pod));
        }
        return pod;
    }

    private static boolean matchesNamespace(ColocationProfile p, String namespace, Cluster cluster, List<String> notes) {
        LabelSelector selector = LabelSelector.fromJson(p.namespaceSelector());
        if (selector.isEmpty()) {
            return true;
        }
        Optional<Map<String, String>> labels = cluster.namespaceLabels(namespace);
        if (labels.isEmpty()) {
            notes.add("profile " + p.name() + ": Namespace " + namespace + " cannot be read: its namespaceSelector counts as matched"
                    + " (Koordinator's rule)");
            return true;
        }
        return selector.matches(labels.get());
    }

    private static boolean matchesPod(ColocationProfile p, Map<String, String> podLabels) {
        return LabelSelector.fromJson(p.selector()).matches(podLabels);
    }

    /** One applied profile, steps 1–10 of §14.5 in order. */
    private static ObjectNode apply(ObjectNode pod, ColocationProfile p, Cluster cluster) throws Denied {
        p.labels().forEach((k, v) -> object(object(pod, "metadata"), "labels").put(k, v));
        p.annotations().forEach((k, v) -> object(object(pod, "metadata"), "annotations").put(k, v));
        mapKeys(pod, "labels", p.labelKeysMapping());
        mapKeys(pod, "annotations", p.annotationKeysMapping());
        if (!p.labelSuffixes().isEmpty()) {
            JsonNode labels = pod.path("metadata").path("labels");
            p.labelSuffixes().forEach((k, suffix) -> {
                if (labels.isObject() && labels.has(k)) {
                    ((ObjectNode) labels).put(k, labels.get(k).asText() + suffix);
                }
            });
        }
        if (p.schedulerName() != null && !p.schedulerName().isEmpty()) {
            object(pod, "spec").put("schedulerName", p.schedulerName());
        }
        if (p.qosClass() != null && !p.qosClass().isEmpty()) {
            object(object(pod, "metadata"), "labels").put(LABEL_QOS, p.qosClass());
        }
        if (p.priorityClassName() != null && !p.priorityClassName().isEmpty()) {
            PriorityClassInfo pc = cluster.priorityClass(p.priorityClassName()).orElseThrow(() -> new Denied(
                    "PriorityClass.scheduling.k8s.io \"" + p.priorityClassName() + "\" not found"));
            ObjectNode spec = object(pod, "spec");
            spec.put("priorityClassName", p.priorityClassName());
            spec.put("priority", pc.value());
            if (pc.preemptionPolicy() == null) {
                spec.remove("preemptionPolicy");
            } else {
                spec.put("preemptionPolicy", pc.preemptionPolicy());
            }
        }
        if (p.koordinatorPriority() != null) {
            object(object(pod, "metadata"), "labels").put(LABEL_PRIORITY, Integer.toString(p.koordinatorPriority()));
        }
        if (p.patch() != null) {
            ObjectNode patched;
            try {
                patched = StrategicMergePatch.apply(pod, p.patch());
            } catch (StrategicMergePatch.Failure e) {
                throw new Denied(e.getMessage());
            }
            decode(patched);
            return patched;
        }
        return pod;
    }

    private static int containers(ObjectNode pod) {
        JsonNode spec = pod.path("spec");
        return spec.path("containers").size() + spec.path("initContainers").size() + spec.path("ephemeralContainers").size();
    }

    /** The first label the profile wrote that is not Kubernetes' label syntax ({@code key=value}); null when none. */
    private static String invalidLabel(ObjectNode before, ObjectNode after) {
        JsonNode was = before.path("metadata").path("labels");
        for (Iterator<Map.Entry<String, JsonNode>> it = after.path("metadata").path("labels").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().equals(was.get(e.getKey()))) {
                continue;
            }
            List<String> problems = new ArrayList<>(LabelSyntax.keyProblems(e.getKey()));
            problems.addAll(LabelSyntax.valueProblems(e.getValue().asText()));
            if (!problems.isEmpty()) {
                return "label " + e.getKey() + "=" + e.getValue().asText() + " invalid (" + String.join("; ", problems) + ")";
            }
        }
        return null;
    }

    /** {@code map[new] = map[old]}, {@code ""} when old is absent (§14.5 steps 3 and 4). */
    private static void mapKeys(ObjectNode pod, String field, Map<String, String> mapping) {
        if (mapping.isEmpty()) {
            return;
        }
        ObjectNode map = object(object(pod, "metadata"), field);
        mapping.forEach((from, to) -> map.put(to, map.path(from).asText("")));
    }

    private static Map<String, String> labels(ObjectNode pod) {
        Map<String, String> out = new java.util.HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = pod.path("metadata").path("labels").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    /** The pod as the typed model, which the priority class needs; a pod the patch broke is refused. */
    private static Pod decode(ObjectNode pod) throws Denied {
        try {
            return TypedObjects.decode(pod, Pod.class, "the patched Pod");
        } catch (InvalidInputException e) {
            throw new Denied(e.getMessage());
        }
    }

    /** The child object, created when absent (a null or a non-object is replaced). */
    static ObjectNode object(ObjectNode parent, String field) {
        JsonNode child = parent.get(field);
        if (child instanceof ObjectNode o) {
            return o;
        }
        ObjectNode created = JsonNodeFactory.instance.objectNode();
        parent.set(field, created);
        return created;
    }
}
