package io.colocation.scheduler.framework;

/**
 * The post-filter extension point: no node fits the pod ({@code why} is the cycle's summary). kube-scheduler's
 * preemption lives here; this scheduler preempts nothing, its plugins only react (a gang lets its members go).
 */
public interface PostFilterPlugin extends Plugin {
    void postFilter(CycleState state, PodInfo pod, String why);
}
