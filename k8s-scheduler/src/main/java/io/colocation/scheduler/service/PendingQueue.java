package io.colocation.scheduler.service;

import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.QueueSortPlugin;
import io.colocation.scheduler.plugins.queuesort.PrioritySort;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The pods waiting for a node, as kube-scheduler's scheduling queue keeps them: the active queue in the order of the
 * profile's queue sort plugin (PrioritySort: highest {@code spec.priority} first, then in arrival order); the backoff
 * queue, where a pod waits out a delay that doubles from the initial one up to the maximum; and the unschedulable
 * pods, which no node could take: they are tried again only when a change in the cluster may let one take them
 * ({@link #moveUnschedulable}, after their backoff), or after {@link #MAX_UNSCHEDULABLE} whatever happened
 * (kube-scheduler's podMaxInUnschedulablePodsDuration), so a full cluster is not searched again and again in vain.
 * A pod taken is kept, hidden, until it is bound, gone or put back, so a newer version arriving meanwhile does not
 * bring it back.
 */
final class PendingQueue {
    /** An unschedulable pod is tried again after this long even if no change announced room for it. */
    static final Duration MAX_UNSCHEDULABLE = Duration.ofMinutes(5);

    enum Where { ACTIVE, BACKOFF, UNSCHEDULABLE, TAKEN }

    /**
     * @param seq   arrival order: the tie-break among equal priorities (FIFO, like kube-scheduler's queue)
     * @param since when an unschedulable pod was put aside
     * @param info  an unschedulable pod as its attempt read it, for the check of a change
     */
    private record Entry(String key, Pod pod, int attempts, Instant notBefore, long seq, Where where, Instant since, PodInfo info) {
        Entry(String key, Pod pod, int attempts, Instant notBefore, long seq, Where where) {
            this(key, pod, attempts, notBefore, seq, where, null, null);
        }

        QueueSortPlugin.QueuedPod queued() {
            return new QueueSortPlugin.QueuedPod(pod, seq);
        }

        Entry to(Where place) {
            return new Entry(key, pod, attempts, notBefore, seq, place);
        }
    }

    private static final Comparator<Entry> BY_DUE = Comparator.comparing(Entry::notBefore).thenComparingLong(Entry::seq);
    private static final Comparator<Entry> BY_SINCE = Comparator.comparing(Entry::since).thenComparingLong(Entry::seq);

    private final Map<String, Entry> entries = new HashMap<>();
    private final TreeSet<Entry> active;
    private final TreeSet<Entry> backingOff = new TreeSet<>(BY_DUE);
    /** In the order they were put aside. */
    private final TreeSet<Entry> unschedulable = new TreeSet<>(BY_SINCE);
    private long arrivals;
    private final Clock clock;
    private final Duration initial;
    private final Duration max;

    PendingQueue(QueueSortPlugin sort, Clock clock, Duration initial, Duration max) {
        QueueSortPlugin order = sort == null ? new PrioritySort() : sort;
        // arrival breaks ties, so two entries are never equal to the set
        this.active = new TreeSet<>((a, b) -> {
            int c = order.compare(a.queued(), b.queued());
            return c != 0 ? c : Long.compare(a.seq(), b.seq());
        });
        this.clock = clock;
        this.initial = initial;
        this.max = max;
    }

    /**
     * A new pending pod, or a newer version of one: its backoff, or its being taken, is kept; an unschedulable pod whose
     * spec, labels or annotations changed is tried again after its backoff (the change may let a node take it).
     */
    synchronized void add(String key, Pod pod) {
        Entry e = entries.get(key);
        if (e == null) {
            put(new Entry(key, pod, 0, Instant.MIN, arrivals++, Where.ACTIVE));
        } else if (e.where() == Where.UNSCHEDULABLE && !updated(e.pod(), pod)) {
            put(new Entry(key, pod, e.attempts(), e.notBefore(), e.seq(), e.where(), e.since(), e.info()));
        } else {
            Where where = e.where() == Where.UNSCHEDULABLE ? due(e.notBefore()) : e.where();
            put(new Entry(key, pod, e.attempts(), e.notBefore(), e.seq(), where));
        }
        notifyAll();
    }

    /** kube-scheduler's isPodUpdated: a change other than the status and the object's bookkeeping. */
    private static boolean updated(Pod old, Pod pod) {
        return !Objects.equals(old.getSpec(), pod.getSpec())
                || !Objects.equals(old.getMetadata().getLabels(), pod.getMetadata().getLabels())
                || !Objects.equals(old.getMetadata().getAnnotations(), pod.getMetadata().getAnnotations());
    }

    private Where due(Instant notBefore) {
        return notBefore.isAfter(clock.instant()) ? Where.BACKOFF : Where.ACTIVE;
    }

    synchronized void remove(String key) {
        unlink(entries.remove(key));
    }

    /** The pod's attempt failed for a reason a change in the cluster need not cure: it is tried again after the backoff. */
    synchronized void backoff(String key) {
        Entry e = entries.get(key);
        if (e != null) {
            put(new Entry(key, e.pod(), e.attempts() + 1, backedOff(e), e.seq(), Where.BACKOFF));
        }
    }

    /**
     * No node could take the pod: it waits until {@link #moveUnschedulable} finds a change that may let one take it, then
     * out its backoff, or for {@link #MAX_UNSCHEDULABLE}.
     */
    synchronized void unschedulable(String key, PodInfo info) {
        Entry e = entries.get(key);
        if (e != null) {
            put(new Entry(key, e.pod(), e.attempts() + 1, backedOff(e), e.seq(), Where.UNSCHEDULABLE, clock.instant(), info));
        }
    }

    private Instant backedOff(Entry e) {
        long delay = Math.min(max.toMillis(), initial.toMillis() << Math.min(20, e.attempts()));
        return clock.instant().plusMillis(delay);
    }

    /** Whether pods are put aside as unschedulable (the caller then looks for changes that may help them). */
    synchronized boolean anyUnschedulable() {
        return !unschedulable.isEmpty();
    }

    /**
     * Moves the unschedulable pods {@code mayFit} accepts back to the queue (the backoff queue while their backoff
     * lasts), as kube-scheduler's cluster events do; returns how many moved.
     */
    synchronized int moveUnschedulable(Predicate<PodInfo> mayFit) {
        List<Entry> moving = new ArrayList<>();
        for (Entry e : unschedulable) {
            if (mayFit.test(e.info())) {
                moving.add(e);
            }
        }
        moving.forEach(e -> put(e.to(due(e.notBefore()))));
        if (!moving.isEmpty()) {
            notifyAll();
        }
        return moving.size();
    }

    synchronized int size() {
        return entries.size();
    }

    /** How many pods wait where: active, backoff, unschedulable, taken (being decided, bound or waiting at Permit). */
    synchronized Map<Where, Integer> sizes() {
        Map<Where, Integer> out = new java.util.EnumMap<>(Where.class);
        for (Where w : Where.values()) {
            out.put(w, 0);
        }
        entries.values().forEach(e -> out.merge(e.where(), 1, Integer::sum));
        return out;
    }

    /** The next pod to try, taken off the queue; waits up to {@code wait} for one to be ready. */
    synchronized Optional<Map.Entry<String, Pod>> take(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Instant now = clock.instant();
            while (!unschedulable.isEmpty() && now.isAfter(unschedulable.first().since().plus(MAX_UNSCHEDULABLE))) {
                Entry oldest = unschedulable.pollFirst();
                put(oldest.to(due(oldest.notBefore())));
            }
            while (!backingOff.isEmpty() && !backingOff.first().notBefore().isAfter(now)) {
                put(backingOff.pollFirst().to(Where.ACTIVE));
            }
            Entry next = active.pollFirst();
            if (next != null) {
                entries.put(next.key(), next.to(Where.TAKEN));
                return Optional.of(Map.entry(next.key(), next.pod()));
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return Optional.empty();
            }
            wait(Math.max(1, Math.min(left / 1_000_000, 50)));
        }
    }

    private void put(Entry e) {
        unlink(entries.put(e.key(), e));
        switch (e.where()) {
            case ACTIVE -> active.add(e);
            case BACKOFF -> backingOff.add(e);
            case UNSCHEDULABLE -> unschedulable.add(e);
            case TAKEN -> { }
        }
    }

    private void unlink(Entry e) {
        if (e != null) {
            active.remove(e);
            backingOff.remove(e);
            if (e.where() == Where.UNSCHEDULABLE) {
                unschedulable.remove(e);
            }
        }
    }
}
