package io.colocation.koordlet.collect;

/**
 * Where usage comes from: the real host ({@link HostUsageSource}), or a simulated host's (the local harness's replayed
 * load curves, the simulator's host model). Called from one thread, once per collect interval.
 */
public interface UsageSource extends AutoCloseable {
    HostSample collect(CollectTargets targets, long nowMillis);

    /** What this source reads, for the start-up log and the status endpoint. */
    String describe();

    /** What cannot be read now (a path or input → the cause), for the status endpoint; thread-safe. */
    java.util.Map<String, String> problems();

    /** Releases what the source keeps open between samples. */
    @Override
    default void close() {
    }
}
