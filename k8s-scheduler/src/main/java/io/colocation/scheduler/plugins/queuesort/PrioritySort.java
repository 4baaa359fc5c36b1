package io.colocation.scheduler.plugins.queuesort;

import io.colocation.scheduler.framework.QueueSortPlugin;
import io.fabric8.kubernetes.api.model.Pod;

/** kube-scheduler's PrioritySort: the highest {@code spec.priority} first, then the earliest arrival. */
public final class PrioritySort implements QueueSortPlugin {
    public static final String NAME = "PrioritySort";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int compare(QueuedPod a, QueuedPod b) {
        int byPriority = Integer.compare(priority(b.pod()), priority(a.pod()));
        return byPriority != 0 ? byPriority : Long.compare(a.arrival(), b.arrival());
    }

    private static int priority(Pod p) {
        return p.getSpec() == null || p.getSpec().getPriority() == null ? 0 : p.getSpec().getPriority();
    }
}
