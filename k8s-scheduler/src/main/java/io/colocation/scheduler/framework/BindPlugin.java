package io.colocation.scheduler.framework;

/** The bind extension point: writes the decision to the API server. The first bind plugin of a profile binds. */
public interface BindPlugin extends Plugin {
    Status bind(CycleState state, PodInfo pod, String node);
}
