package io.colocation.scheduler.service;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * A pod's gang (KOORDINATOR-COMPAT.md §10.1): by the label {@code pod-group.scheduling.sigs.k8s.io} naming a PodGroup
 * ({@code scheduling.sigs.k8s.io/v1alpha1}, its {@code spec.minMember}), else by the annotations
 * {@code gang.scheduling.koordinator.sh/name} and {@code .../min-available}.
 *
 * @param id        {@code <namespace>/<name>}
 * @param minMember how many members must be placed together
 */
record Gang(String id, int minMember) {
    static final String LABEL_POD_GROUP = "pod-group.scheduling.sigs.k8s.io";
    static final String ANNOTATION_NAME = "gang.scheduling.koordinator.sh/name";
    static final String ANNOTATION_MIN_AVAILABLE = "gang.scheduling.koordinator.sh/min-available";

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
            Object min = spec instanceof Map<?, ?> m ? m.get("minMember") : null;
            if (!(min instanceof Number n) || n.intValue() < 1) {
                throw new Unusable("PodGroup " + ns + "/" + group + " has no spec.minMember of at least 1");
            }
            return Optional.of(new Gang(ns + "/" + group, n.intValue()));
        }
        String name = annotations.get(ANNOTATION_NAME);
        if (name == null || name.isEmpty()) {
            return Optional.empty();
        }
        String min = annotations.get(ANNOTATION_MIN_AVAILABLE);
        try {
            int m = Integer.parseInt(min == null ? "" : min.trim());
            if (m < 1) {
                throw new NumberFormatException();
            }
            return Optional.of(new Gang(ns + "/" + name, m));
        } catch (NumberFormatException e) {
            throw new Unusable("annotation " + ANNOTATION_MIN_AVAILABLE + " must be a positive integer, found '" + min + "'");
        }
    }

    /** Whether the pod is a member of this gang (same namespace and name, by label or annotation). */
    boolean member(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
        String name = labels.getOrDefault(LABEL_POD_GROUP, annotations.get(ANNOTATION_NAME));
        return name != null && id.equals(ns + "/" + name);
    }
}
