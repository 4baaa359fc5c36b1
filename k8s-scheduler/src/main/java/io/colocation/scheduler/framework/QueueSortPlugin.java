package io.colocation.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;

/** The queue sort extension point: which waiting pod is tried first. One per profile. */
public interface QueueSortPlugin extends Plugin {
    /** A pod in the queue and when it arrived there (a counter: the earlier, the smaller). */
    record QueuedPod(Pod pod, long arrival) {
    }

    /** Negative when {@code a} goes before {@code b}. */
    int compare(QueuedPod a, QueuedPod b);
}
