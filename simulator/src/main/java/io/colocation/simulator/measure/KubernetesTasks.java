package io.colocation.simulator.measure;

/** What happened to the Kubernetes batch pods of a run, whichever engine ran them. */
public interface KubernetesTasks {
    long submitted();

    long completed();

    long evicted();

    long oomKilled();

    /** From creation to running, in simulated ms. */
    Durations queueingMillis();
}
