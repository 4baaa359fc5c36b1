package io.colocation.model.pod;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * A pod's {@code status.phase} as every part reads it. One rule for when a pod has ended (Succeeded or Failed: it
 * holds nothing on its node any more); a pod without a phase, Pending, Running or Unknown still holds what it asked
 * for, which is the safe side for a ledger that must never overcommit. The Batch calculation alone counts differently,
 * as Koordinator does (only Running and Pending pods; {@code NodeStateReader}).
 */
public final class PodPhases {
    public static final String PENDING = "Pending";
    public static final String RUNNING = "Running";

    private PodPhases() {
    }

    /** The phase, or null when the pod has no status or no phase yet. */
    public static String of(Pod pod) {
        return pod.getStatus() == null ? null : pod.getStatus().getPhase();
    }

    /** Succeeded or Failed: the pod holds nothing on its node any more. */
    public static boolean ended(Pod pod) {
        String phase = of(pod);
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /** Bound to a node ({@code spec.nodeName} set): what it asked for is held there. */
    public static boolean bound(Pod pod) {
        return pod.getSpec() != null && pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty();
    }

    public static boolean running(Pod pod) {
        return RUNNING.equals(of(pod));
    }
}
