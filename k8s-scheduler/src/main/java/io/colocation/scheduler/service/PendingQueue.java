package io.colocation.scheduler.service;

import io.colocation.scheduler.framework.QueueSortPlugin;
import io.colocation.scheduler.plugins.queuesort.PrioritySort;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The pods waiting for a node, in the order of the profile's queue sort plugin (PrioritySort: highest
 * {@code spec.priority} first, then in arrival order);
 * a pod that found no node waits out a backoff that doubles from the initial delay up to the maximum. A pod taken is
 * kept, hidden, until it is bound, gone or backed off, so a newer version arriving meanwhile does not bring it back.
 */
final class PendingQueue {
    private enum Where { ACTIVE, BACKOFF, TAKEN }

    /** @param seq arrival order: the tie-break among equal priorities (FIFO, like kube-scheduler's queue) */
    private record Entry(String key, Pod pod, int attempts, Instant notBefore, long seq, Where where) {
        QueueSortPlugin.QueuedPod queued() {
            return new QueueSortPlugin.QueuedPod(pod, seq);
        }
    }

    private static final Comparator<Entry> BY_DUE = Comparator.comparing(Entry::notBefore).thenComparingLong(Entry::seq);

    private final Map<String, Entry> entries = new HashMap<>();
    private final TreeSet<Entry> active;
    private final TreeSet<Entry> backingOff = new TreeSet<>(BY_DUE);
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

    /** A new pending pod, or a newer version of one (its backoff, or its being taken, is kept). */
    synchronized void add(String key, Pod pod) {
        Entry e = entries.get(key);
        put(e == null ? new Entry(key, pod, 0, Instant.MIN, arrivals++, Where.ACTIVE)
                : new Entry(key, pod, e.attempts(), e.notBefore(), e.seq(), e.where()));
        notifyAll();
    }

    synchronized void remove(String key) {
        unlink(entries.remove(key));
    }

    /** The pod found no node: it is tried again after the backoff. */
    synchronized void backoff(String key) {
        Entry e = entries.get(key);
        if (e == null) {
            return;
        }
        long delay = Math.min(max.toMillis(), initial.toMillis() << Math.min(20, e.attempts()));
        put(new Entry(key, e.pod(), e.attempts() + 1, clock.instant().plusMillis(delay), e.seq(), Where.BACKOFF));
    }

    synchronized int size() {
        return entries.size();
    }

    /** The next pod to try, taken off the queue; waits up to {@code wait} for one to be ready. */
    synchronized Optional<Map.Entry<String, Pod>> take(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Instant now = clock.instant();
            while (!backingOff.isEmpty() && !backingOff.first().notBefore().isAfter(now)) {
                Entry due = backingOff.pollFirst();
                put(new Entry(due.key(), due.pod(), due.attempts(), due.notBefore(), due.seq(), Where.ACTIVE));
            }
            Entry next = active.pollFirst();
            if (next != null) {
                entries.put(next.key(), new Entry(next.key(), next.pod(), next.attempts(), next.notBefore(), next.seq(),
                        Where.TAKEN));
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
            case TAKEN -> { }
        }
    }

    private void unlink(Entry e) {
        if (e != null) {
            active.remove(e);
            backingOff.remove(e);
        }
    }
}
