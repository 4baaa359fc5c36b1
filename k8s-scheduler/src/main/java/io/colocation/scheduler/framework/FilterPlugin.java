package io.colocation.scheduler.framework;

/** The filter extension point: can the pod run on this node? */
public interface FilterPlugin extends Plugin {
    Status filter(CycleState state, PodInfo pod, NodeInfo node);
}
