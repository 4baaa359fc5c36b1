package io.colocation.model.pod;

import io.colocation.api.InvalidInputException;
import io.colocation.model.KubeTime;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;

/**
 * What Kubernetes weighs when one pod must give way to another ({@code corev1helpers.PodPriority} and
 * {@code util.GetPodStartTime}, which {@code MoreImportantPod} compares): the priority, then the start.
 */
public final class PodImportance {
    private PodImportance() {
    }

    /** {@code spec.priority}, 0 when the pod has none. */
    public static int priority(Pod pod) {
        Integer p = pod.getSpec() == null ? null : pod.getSpec().getPriority();
        return p == null ? 0 : p;
    }

    /** {@code status.startTime}, or {@code now} when the pod has not started (or its time does not read), as Kubernetes does. */
    public static Instant started(Pod pod, Instant now) {
        try {
            Instant t = KubeTime.parseOptional(pod.getStatus() == null ? null : pod.getStatus().getStartTime(), "status.startTime");
            return t == null ? now : t;
        } catch (InvalidInputException e) {
            return now;
        }
    }
}
