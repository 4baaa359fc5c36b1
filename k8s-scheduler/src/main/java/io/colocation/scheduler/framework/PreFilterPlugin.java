package io.colocation.scheduler.framework;

/** The pre-filter extension point: can the pod be scheduled at all now, whatever the node? Runs once a cycle. */
public interface PreFilterPlugin extends Plugin {
    Status preFilter(CycleState state, PodInfo pod);
}
