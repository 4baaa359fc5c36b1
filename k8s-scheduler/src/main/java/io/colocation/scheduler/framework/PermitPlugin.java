package io.colocation.scheduler.framework;

import java.time.Duration;

/** The permit extension point: may the reserved pod be bound now, must it wait (how long at most), or not at all? */
public interface PermitPlugin extends Plugin {
    /**
     * A plugin's answer: allow, wait up to {@code timeout} for {@link WaitingPods#allow} ({@code waitingFor} says for
     * what, in the message of a pod whose wait runs out), or reject.
     */
    record Permit(Status status, Duration timeout, String waitingFor) {
        public static final Permit ALLOW = new Permit(Status.SUCCESS, null, null);

        public static Permit waitFor(Duration timeout, String waitingFor) {
            return new Permit(Status.SUCCESS, timeout, waitingFor);
        }

        public static Permit reject(String reason) {
            return new Permit(Status.unschedulable(reason), null, null);
        }

        public boolean waiting() {
            return status.success() && timeout != null;
        }
    }

    Permit permit(CycleState state, PodInfo pod, String node);
}
