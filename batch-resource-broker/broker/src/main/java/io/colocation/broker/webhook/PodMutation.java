package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.api.KoordinatorKeys;
import io.colocation.model.TypedObjects;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The create path of Koordinator's pod-mutating webhook (KOORDINATOR-COMPAT.md §14.2–§14.7) as a pure function of the
 * submitted Pod and what the cluster holds: stage 1, ClusterColocationProfile (matching on the pod as submitted, name
 * order, probability, each profile's mutations, then the extended-resource conversion), and stage 2, the
 * {@code node.koordinator.sh/extended-resource-spec} annotation. The broker's webhook and {@code colocation webhook
 * explain} both run it.
 */
public final class PodMutation {
    static final String LABEL_QOS = KoordinatorKeys.LABEL_QOS_CLASS;
    static final String LABEL_PRIORITY = "koordinator.sh/priority";

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

    /** Koordinator refuses the pod; the message is Koordinator's text. */
    public static final class Denied extends Exception {
        private static final long serialVersionUID = 1L;

        public Denied(String message) {
            super(message);
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
            if (matchesNamespace(p, namespace, cluster, notes) && matchesPod(p, podLabels, notes)) {
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
            pod = apply(pod, p, cluster);
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
        JsonNode selector = p.namespaceSelector();
        if (selector == null || LabelSelectors.empty(selector)) {
            return true;
        }
        Optional<Map<String, String>> labels = cluster.namespaceLabels(namespace);
        if (labels.isEmpty()) {
            notes.add("profile " + p.name() + ": Namespace " + namespace + " cannot be read: its namespaceSelector counts as matched"
                    + " (Koordinator's rule)");
            return true;
        }
        return verdict(p, "namespaceSelector", LabelSelectors.match(selector, labels.get()), notes);
    }

    private static boolean matchesPod(ColocationProfile p, Map<String, String> podLabels, List<String> notes) {
        JsonNode selector = p.selector();
        if (selector == null || LabelSelectors.empty(selector)) {
            return true;
        }
        return verdict(p, "selector", LabelSelectors.match(selector, podLabels), notes);
    }

    private static boolean verdict(ColocationProfile p, String field, LabelSelectors.Verdict v, List<String> notes) {
        if (v.error() != null) {
            notes.add("profile " + p.name() + ": its " + field + " does not compile (" + v.error()
                    + "): counted as matched (Koordinator's rule)");
            return true;
        }
        return v.matched();
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
