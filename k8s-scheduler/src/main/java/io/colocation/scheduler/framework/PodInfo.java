package io.colocation.scheduler.framework;

import io.colocation.api.PriorityClass;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.Map;

/**
 * A pod with what plugins read from it, parsed once.
 *
 * @param requests    effective requests: cpu in milli-cores, others as integer values
 * @param limits      effective limits, same units
 * @param placedAt    for an assigned pod, its {@code PodScheduled} transition time (else the snapshot's now)
 * @param initializedAt its {@code Initialized=True} transition time, null without one
 */
public record PodInfo(Pod pod, String key, PriorityClass priorityClass, Map<String, Long> requests, Map<String, Long> limits,
        Instant placedAt, Instant initializedAt) {

    /** The same pod placed at {@code at}: a pending pod's info as it holds room on the node it was assumed onto. */
    public PodInfo withPlacedAt(Instant at) {
        return new PodInfo(pod, key, priorityClass, requests, limits, at, initializedAt);
    }

    public Map<String, String> annotations() {
        return pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
    }

    public boolean ownedByDaemonSet() {
        return pod.getMetadata().getOwnerReferences() != null
                && pod.getMetadata().getOwnerReferences().stream().anyMatch(o -> "DaemonSet".equals(o.getKind()));
    }
}
