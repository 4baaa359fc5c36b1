package io.colocation.scheduler.framework;

/**
 * The reserve extension point: the pod is assumed onto the node (its room held in the scheduler's cache);
 * {@link #unreserve} undoes it when a later point rejects the pod, its Permit wait ends without approval, or its
 * binding fails.
 */
public interface ReservePlugin extends Plugin {
    Status reserve(CycleState state, PodInfo pod, String node);

    void unreserve(CycleState state, PodInfo pod, String node);
}
