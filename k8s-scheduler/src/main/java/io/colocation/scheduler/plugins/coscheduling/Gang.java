package io.colocation.scheduler.plugins.coscheduling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import io.colocation.model.GoDuration;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * A pod's gang (docs/koordinator-compatibility.md §10.1): by the label {@code pod-group.scheduling.sigs.k8s.io} naming a PodGroup
 * ({@code scheduling.sigs.k8s.io/v1alpha1}: {@code spec.minMember}, {@code spec.scheduleTimeoutSeconds}, the gang keys
 * in its annotations), else by the pod's annotations {@code gang.scheduling.koordinator.sh/name},
 * {@code .../min-available}, {@code .../waiting-time}, {@code .../mode}, {@code .../match-policy}, {@code .../groups}.
 *
 * @param id          {@code <namespace>/<name>}
 * @param minMember   how many members must be placed together
 * @param waitingTime how long a reserved member waits at Permit for the others; null: the plugin's default
 * @param strict      Strict (default): one member failing releases every waiting member; NonStrict: they wait on
 * @param matchPolicy {@code once-satisfied}, {@code only-waiting} or {@code waiting-and-running}; null: the default
 * @param group       the gang IDs placed together with this one ({@code groups}: a JSON array; absent or unreadable:
 *                    this gang alone); always holds this gang's own ID
 */
record Gang(String id, int minMember, Duration waitingTime, boolean strict, String matchPolicy, List<String> group) {
    static final String LABEL_POD_GROUP = "pod-group.scheduling.sigs.k8s.io";
    static final String PREFIX = "gang.scheduling.koordinator.sh/";
    static final String ANNOTATION_NAME = PREFIX + "name";
    static final String ANNOTATION_MIN_AVAILABLE = PREFIX + "min-available";
    static final String ANNOTATION_WAITING_TIME = PREFIX + "waiting-time";
    static final String ANNOTATION_MODE = PREFIX + "mode";
    static final String ANNOTATION_MATCH_POLICY = PREFIX + "match-policy";
    static final String ANNOTATION_GROUPS = PREFIX + "groups";
    static final String ANNOTATION_MATCH_POLICY_ALIAS = "pod-group.scheduling.sigs.k8s.io/match-policy";
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String ONCE_SATISFIED = "once-satisfied";
    static final String ONLY_WAITING = "only-waiting";
    static final String WAITING_AND_RUNNING = "waiting-and-running";

    /** Why a pod's gang cannot be used (no PodGroup yet, no or a bad min-available). */
    static final class Unusable extends Exception {
        private static final long serialVersionUID = 1L;

        Unusable(String message) {
            super(message);
        }
    }

    /**
     * The pod's gang; empty for a pod in none.
     *
     * @param podGroup reads a PodGroup by namespace and name (null when there is none)
     */
    static Optional<Gang> of(Pod pod, BiFunction<String, String, GenericKubernetesResource> podGroup) throws Unusable {
        String ns = pod.getMetadata().getNamespace();
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
        String group = labels.get(LABEL_POD_GROUP);
        if (group != null && !group.isEmpty()) {
            GenericKubernetesResource pg = podGroup.apply(ns, group);
            if (pg == null) {
                throw new Unusable("PodGroup " + ns + "/" + group + " does not exist (yet)");
            }
            Object spec = pg.getAdditionalProperties().get("spec");
            int min = PodGroupStatus.minMember(spec instanceof Map<?, ?> m ? m.get("minMember") : null);
            if (min < 1) {
                throw new Unusable("PodGroup " + ns + "/" + group + " has no spec.minMember from 1 to " + Integer.MAX_VALUE
                        + " (an int32), found " + (spec instanceof Map<?, ?> m ? m.get("minMember") : null));
            }
            Object timeout = spec instanceof Map<?, ?> m ? m.get("scheduleTimeoutSeconds") : null;
            Duration waiting = timeout instanceof Number t && t.longValue() > 0 ? Duration.ofSeconds(t.longValue()) : null;
            Map<String, String> pgAnnotations = pg.getMetadata().getAnnotations() == null ? Map.of() : pg.getMetadata().getAnnotations();
            String id = ns + "/" + group;
            return Optional.of(new Gang(id, min, waiting, strict(pgAnnotations), matchPolicy(pgAnnotations),
                    group(pgAnnotations, id)));
        }
        String name = annotations.get(ANNOTATION_NAME);
        if (name == null || name.isEmpty()) {
            return Optional.empty();
        }
        String min = annotations.get(ANNOTATION_MIN_AVAILABLE);
        int m;
        try {
            m = Integer.parseInt(min == null ? "" : min.trim());
            if (m < 1) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            throw new Unusable("annotation " + ANNOTATION_MIN_AVAILABLE + " must be a positive integer, found '" + min + "'");
        }
        String id = ns + "/" + name;
        return Optional.of(new Gang(id, m, waitingTime(annotations.get(ANNOTATION_WAITING_TIME)), strict(annotations),
                matchPolicy(annotations), group(annotations, id)));
    }

    /** Koordinator's parsing: a Go duration; 0, negative or unreadable → the default. */
    private static Duration waitingTime(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            Duration d = GoDuration.parse(text.trim(), ANNOTATION_WAITING_TIME);
            return d.isZero() || d.isNegative() ? null : d;
        } catch (InvalidInputException e) {
            return null;
        }
    }

    /** Anything but NonStrict is Strict. */
    private static boolean strict(Map<String, String> annotations) {
        return !"NonStrict".equals(annotations.get(ANNOTATION_MODE));
    }

    /** A known policy (the key, else its alias), else null (the default). */
    private static String matchPolicy(Map<String, String> annotations) {
        String p = annotations.getOrDefault(ANNOTATION_MATCH_POLICY, annotations.get(ANNOTATION_MATCH_POLICY_ALIAS));
        return ONCE_SATISFIED.equals(p) || ONLY_WAITING.equals(p) || WAITING_AND_RUNNING.equals(p) ? p : null;
    }

    /** The gang IDs of {@code groups} (a JSON array of strings), with this gang's own; unreadable: this gang alone. */
    private static List<String> group(Map<String, String> annotations, String id) {
        String text = annotations.get(ANNOTATION_GROUPS);
        Set<String> ids = new TreeSet<>();
        ids.add(id);
        if (text != null && !text.isBlank()) {
            try {
                for (JsonNode n : JSON.readTree(text)) {
                    if (n.isTextual() && !n.asText().isBlank()) {
                        ids.add(n.asText());
                    }
                }
            } catch (IOException e) {
                return List.of(id);
            }
        }
        return List.copyOf(ids);
    }

    /** The ID of the pod's gang ({@code <namespace>/<name>}, by label or annotation), or null for a pod in none. */
    static String idOf(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
        String name = labels.getOrDefault(LABEL_POD_GROUP, annotations.get(ANNOTATION_NAME));
        return name == null || name.isEmpty() ? null : pod.getMetadata().getNamespace() + "/" + name;
    }

    /** Whether the pod is a member of this gang (same namespace and name, by label or annotation). */
    boolean member(Pod pod) {
        return id.equals(idOf(pod));
    }

    /** The ID of the gang group: its gang IDs sorted, comma-joined. */
    String groupId() {
        return String.join(",", group);
    }
}
