package io.colocation.scheduler.service;

import io.colocation.api.InvalidInputException;
import io.colocation.kube.client.EventRecorder;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.Framework;
import io.colocation.scheduler.framework.NodeSearch;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Snapshots;
import io.colocation.scheduler.framework.Status;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pod's way through the scheduler, as kube-scheduler's {@code scheduleOne}: the scheduling cycle on the cache's
 * snapshot (filter, score, reserve, Permit), then the binding cycle on the binder pool, at once or after the pod's
 * Permit wait; an unschedulable pod gets a FailedScheduling Event (its PostFilter's victims, if any, are preempted) and waits for a change that may let a node take it,
 * a failed one backs off. The service's loop hands it pods; it never runs while this replica does not lead.
 */
final class PodScheduling {
    private static final Logger LOG = LoggerFactory.getLogger(PodScheduling.class);
    static final String FAILED_SCHEDULING = "FailedScheduling";

    private final Framework framework;
    /** Finds each pod's node; its search of a large cluster goes on where the previous one stopped (only the loop uses it). */
    private final Framework.NodeSelector selector;
    private final ClusterCache cache;
    private final PendingQueue queue;
    private final PermitWaits waits;
    private final EventRecorder events;
    private final SchedulerMetrics metrics;
    private final ExecutorService binding;
    /** The decisions' clock. */
    private final Clock clock;
    /** When a pod was bound, on the wall clock. */
    private final Clock wall;
    private final BooleanSupplier leading;
    private final Preemptions preemptions;
    private volatile Instant lastBound;

    PodScheduling(Framework framework, ClusterCache cache, PendingQueue queue, PermitWaits waits, EventRecorder events,
            SchedulerMetrics metrics, ExecutorService binding, Clock clock, Clock wall, BooleanSupplier leading, Preemptions preemptions) {
        this.framework = framework;
        this.selector = framework.searching(new NodeSearch());
        this.cache = cache;
        this.queue = queue;
        this.waits = waits;
        this.events = events;
        this.metrics = metrics;
        this.binding = binding;
        this.clock = clock;
        this.wall = wall;
        this.leading = leading;
        this.preemptions = preemptions;
    }

    /** When this replica last bound a pod; null: never. */
    Instant lastBound() {
        return lastBound;
    }

    /** One pod's attempt, from the loop; its result goes to the metrics when it ends here. */
    void scheduleOne(String key) {
        long start = System.nanoTime();
        String result;
        try {
            result = attempt(key, start);
        } catch (RuntimeException e) {
            result = failed(key, e);
        }
        if (result != null) {
            metrics.attemptEnded(result, start);
        }
    }

    /**
     * An attempt that failed with a bug (a plugin's exception): the pod's room is released, it is told why, backed off
     * and tried again later, like an unschedulable pod; the loop goes on with the next one.
     */
    private String failed(String key, RuntimeException e) {
        LOG.error("pod {}: the scheduling attempt failed; it is backed off and tried again", key, e);
        metrics.errors.incrementAndGet();
        Pod pod = cache.current(key);
        if (pod != null && !waits.contains(key)) {
            cache.forget(pod);
        }
        if (pod != null) {
            events.warning(EventRecorder.Involved.of(pod), FAILED_SCHEDULING, "the scheduler failed on this pod (" + e
                    + "); it will try again", null);
        }
        queue.backoff(key);
        return "error";
    }

    /**
     * One attempt; returns its result for the metrics ({@code scheduled}, {@code unschedulable}, {@code error}), null
     * if void or if a binding was started (its end records the result).
     */
    private String attempt(String key, long startNanos) {
        Pod pod = cache.current(key);
        if (pod == null || pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
            queue.remove(key);
            return null;
        }
        metrics.attempts.incrementAndGet();
        Instant now = clock.instant();
        PodInfo info;
        try {
            info = Snapshots.pod(pod, now, "Pod " + key + ": ");
        } catch (InvalidInputException e) {
            events.warning(EventRecorder.Involved.of(pod), FAILED_SCHEDULING, "cannot read the pod: " + e.getMessage(), null);
            queue.backoff(key);
            return "error";
        }
        CycleState state = new CycleState(cache.snapshot(now));
        Framework.CycleResult cycle = framework.schedulingCycle(state, info, selector, cache);
        if (!cycle.reserved()) {
            if (cycle.nomination() != null) {
                Pod preemptor = pod;
                binding.execute(() -> preemptions.carryOut(preemptor, cycle.nomination()));
            }
            return unschedulable(key, pod, cycle.reason(), cycle.rejectedAt() == Framework.Point.FILTER ? info : null);
        }
        Framework.PermitVerdict permit = cycle.permit();
        PermitWaits.Entry entry = new PermitWaits.Entry(info, state, cycle.node(),
                now.plus(permit.waiting() ? permit.timeout() : Duration.ZERO), permit.waitingFor(), startNanos);
        if (permit.waiting()) {
            LOG.info("pod {} reserved on {}, waiting up to {} s at Permit ({})", key, cycle.node(), permit.timeout().toSeconds(),
                    permit.waitingFor());
            waits.add(entry);
            return null;
        }
        // The next pod is decided while this one binds; the assumption keeps its room taken meanwhile.
        permitted(entry);
        return null;
    }

    /**
     * The pod cannot go on now: it is told why; if no node could take it ({@code noNode}, the pod as the attempt read
     * it), it waits for a change that may let one, otherwise it backs off.
     */
    private String unschedulable(String key, Pod pod, String why, PodInfo noNode) {
        metrics.unschedulable.incrementAndGet();
        LOG.debug("pod {} is unschedulable: {}", key, why);
        events.warning(EventRecorder.Involved.of(pod), FAILED_SCHEDULING, why, null);
        if (noNode != null) {
            queue.unschedulable(key, noNode);
        } else {
            queue.backoff(key);
        }
        return "unschedulable";
    }

    /** A reserved pod passed Permit: it binds on the binder pool. */
    void permitted(PermitWaits.Entry e) {
        binding.execute(() -> bindReserved(e));
    }

    /** A pod waiting at Permit was rejected or its wait ran out: its room is released and it is tried again later. */
    void rejectedWhileWaiting(PermitWaits.Entry e, String reason) {
        framework.unreserve(e.state(), e.pod(), e.node(), cache);
        if (!leading.getAsBoolean() || cache.current(e.pod().key()) == null) {
            queue.backoff(e.pod().key()); // not this replica's to report, or nobody left to tell
            return;
        }
        unschedulable(e.pod().key(), e.pod().pod(), reason, null);
        metrics.attemptEnded("unschedulable", e.startNanos());
    }

    /** The binding cycle of a reserved pod. */
    private void bindReserved(PermitWaits.Entry e) {
        String key = e.pod().key();
        Pod pod = e.pod().pod();
        if (!leading.getAsBoolean()) {
            // Leadership went while this waited: the new leader decides the pod again.
            framework.unreserve(e.state(), e.pod(), e.node(), cache);
            queue.backoff(key);
            return;
        }
        Status s = framework.runBind(e.state(), e.pod(), e.node());
        if (!s.success()) {
            framework.unreserve(e.state(), e.pod(), e.node(), cache);
            LOG.warn("pod {}: binding to {} failed: {}", key, e.node(), String.join(", ", s.reasons()));
            queue.backoff(key);
            metrics.attemptEnded("error", e.startNanos());
            return;
        }
        metrics.bound.incrementAndGet();
        lastBound = wall.instant();
        queue.remove(key);
        events.normal(EventRecorder.Involved.of(pod), "Scheduled", "Successfully assigned " + key + " to " + e.node(), null);
        LOG.debug("pod {} bound to {}", key, e.node());
        metrics.attemptEnded("scheduled", e.startNanos());
    }
}
