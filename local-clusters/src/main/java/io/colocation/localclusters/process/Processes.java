package io.colocation.localclusters.process;

import java.util.concurrent.TimeUnit;

/** Stopping a server process the way its operator would: SIGTERM, then SIGKILL when it does not end in time. */
public final class Processes {
    private Processes() {
    }

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
}
