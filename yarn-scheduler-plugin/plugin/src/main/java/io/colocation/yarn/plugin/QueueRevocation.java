package io.colocation.yarn.plugin;

import io.colocation.api.yarn.YarnQueueLimits;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes back what a leaf queue of a tree over Batch holds above its maximum (the tree's runtime) once that has lasted
 * the tree's revoke delay, as Koordinator revokes an overused quota's pods after {@code delayEvictTime}: a lowered
 * {@code maximum-capacity} only stops new allocations, and YARN's own preemption takes back a fraction per round and
 * only for queues below their guarantee. The containers go through {@link GracefulPreemption}, in the one victim order.
 */
final class QueueRevocation {
    private static final Logger LOG = LoggerFactory.getLogger(QueueRevocation.class);

    private final CapacityScheduler scheduler;
    private final GracefulPreemption preemption;
    /** Since when each queue holds more than its maximum. */
    private final Map<String, Long> overSince = new HashMap<>();

    QueueRevocation(CapacityScheduler scheduler, GracefulPreemption preemption) {
        this.scheduler = scheduler;
        this.preemption = preemption;
    }

    /** One pass over the limits YARN holds (null: none). */
    void run(long nowMillis, YarnQueueLimits limits) {
        if (limits == null || limits.revokeAfterMillis() < 0) {
            overSince.clear();
            preemption.retainQueues(Collections.<String>emptySet());
            return;
        }
        Map<String, CSQueue> queues = QueueLimits.queuesByPath(scheduler);
        overSince.keySet().retainAll(limits.queues().keySet());
        preemption.retainQueues(limits.queues().keySet());
        for (Map.Entry<String, YarnQueueLimits.Limit> e : limits.queues().entrySet()) {
            String path = e.getKey();
            CSQueue queue = queues.get(path);
            if (queue == null || (queue.getChildQueues() != null && !queue.getChildQueues().isEmpty())) {
                continue; // a queue above leaves holds the sum: its leaves are revoked
            }
            YarnQueueLimits.Limit limit = e.getValue();
            Resource used = queue.getQueueResourceUsage().getUsed(RMNodeLabelsManager.NO_LABEL);
            long overMemory = used.getMemorySize() - limit.maximumMemoryMB();
            long overVcores = used.getVirtualCores() - (long) limit.maximumVcores();
            boolean over = overMemory > 0 || (overVcores > 0 && GracefulPreemption.schedulesVcores(scheduler));
            if (!over) {
                if (overSince.remove(path) != null) {
                    LOG.info("queue {} is within its maximum {} again", path, limit.maximumCapacity());
                }
                if (preemption.taking(path)) {
                    preemption.take(nowMillis, path, "queue " + path, "", containers(path), overMemory, overVcores);
                }
                continue;
            }
            Long since = overSince.get(path);
            if (since == null) {
                overSince.put(path, nowMillis);
                LOG.info("queue {} holds {} above its maximum-capacity {} (the tree's runtime): revoked in {} ms unless it "
                        + "gives it back", path, used, limit.maximumCapacity(), limits.revokeAfterMillis());
                since = nowMillis;
            }
            if (nowMillis - since >= limits.revokeAfterMillis()) {
                preemption.take(nowMillis, path, "queue " + path, "allocated " + used + " exceeds maximum-capacity "
                        + limit.maximumCapacity() + " (the tree's runtime, epoch " + limits.epoch() + " version " + limits.version()
                        + ") for " + (nowMillis - since) + " ms", containers(path), overMemory, overVcores);
            }
        }
    }

    /** The running containers of the applications in the queue. */
    private List<RMContainer> containers(String path) {
        List<RMContainer> out = new ArrayList<>();
        for (SchedulerApplication<?> app : scheduler.getSchedulerApplications().values()) {
            Queue queue = app.getQueue();
            SchedulerApplicationAttempt attempt = app.getCurrentAppAttempt();
            if (attempt != null && queue instanceof CSQueue && path.equals(((CSQueue) queue).getQueuePath())) {
                out.addAll(attempt.getLiveContainers());
            }
        }
        return out;
    }
}
