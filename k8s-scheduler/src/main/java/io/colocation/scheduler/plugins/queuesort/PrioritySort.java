package io.colocation.scheduler.plugins.queuesort;

import io.colocation.model.pod.PodImportance;
import io.colocation.scheduler.framework.QueueSortPlugin;

/** kube-scheduler's PrioritySort: the highest {@code spec.priority} first, then the earliest arrival. */
public final class PrioritySort implements QueueSortPlugin {
    public static final String NAME = "PrioritySort";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int compare(QueuedPod a, QueuedPod b) {
        int byPriority = Integer.compare(PodImportance.priority(b.pod()), PodImportance.priority(a.pod()));
        return byPriority != 0 ? byPriority : Long.compare(a.arrival(), b.arrival());
    }
}
