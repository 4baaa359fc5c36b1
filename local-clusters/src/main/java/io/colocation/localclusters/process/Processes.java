package io.colocation.localclusters.process;

import java.util.concurrent.TimeUnit;

/** Waiting for a server process to come up, and stopping it the way its operator would. */
public final class Processes {
    private Processes() {
    }

    /** SIGTERM, then SIGKILL when it has not ended within {@code graceSeconds}. */
    public static void stop(Process p, int graceSeconds) {
        p.destroy();
        try {
            if (!p.waitFor(graceSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    /** One step of a start-up wait; an interrupt ends the wait as an IOException. */
    public static void awaitStep(long millis) throws java.io.IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.IOException("interrupted", e);
        }
    }
}
