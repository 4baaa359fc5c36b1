package io.colocation.scheduler.service;

import io.colocation.scheduler.framework.ClusterSnapshot;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.SchedulingCycle;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves back to the queue each unschedulable pod that a node changed since the last look could now take (every filter
 * passes there), as kube-scheduler's cluster events with their queueing hints do: room freed by a pod that ended, a
 * grant that grew, a node that came, a cooler NodeMetric. A pod put aside during an attempt is checked against every
 * change since that attempt's snapshot, so no change is missed. Runs on the scheduling loop, before each take.
 */
final class NodeChangeRequeue implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeChangeRequeue.class);

    private final ClusterCache cache;
    private final PendingQueue queue;
    private final Profile profile;
    private final Clock clock;

    NodeChangeRequeue(ClusterCache cache, PendingQueue queue, Profile profile, Clock clock) {
        this.cache = cache;
        this.queue = queue;
        this.profile = profile;
        this.clock = clock;
    }

    @Override
    public void run() {
        List<NodeInfo> changed = cache.changedNodes(clock.instant());
        if (changed.isEmpty() || !queue.anyUnschedulable()) {
            return;
        }
        ClusterSnapshot snapshot = cache.snapshot(clock.instant());
        int moved = queue.moveUnschedulable(pod -> {
            CycleState state = new CycleState(snapshot);
            return changed.stream().anyMatch(node -> SchedulingCycle.feasible(profile, state, pod, node));
        });
        if (moved > 0) {
            LOG.debug("{} unschedulable pods may fit on the {} nodes that changed: tried again", moved, changed.size());
        }
    }
}
