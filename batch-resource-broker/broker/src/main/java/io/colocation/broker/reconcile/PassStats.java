package io.colocation.broker.reconcile;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/** The broker's passes counted since start, for the metrics and the liveness probe. */
public final class PassStats {
    public final AtomicLong passes = new AtomicLong();
    /** Passes that decided every node (the rest decided only the nodes whose inputs changed). */
    public final AtomicLong fullPasses = new AtomicLong();
    public final AtomicLong kubernetesWrites = new AtomicLong();
    public final AtomicLong yarnWrites = new AtomicLong();
    public final AtomicLong publishErrors = new AtomicLong();
    /** Node-passes in which the grants together exceeded origin (the shared policy's overcommit). */
    public final AtomicLong overcommits = new AtomicLong();
    /** Node-passes in which use exceeded origin (excess to take back: YARN's grant shrinks below its use). */
    public final AtomicLong excesses = new AtomicLong();
    public volatile long lastPassMillis;
    public volatile long lastFullPassMillis;
    public volatile Instant lastPassAt;
}
