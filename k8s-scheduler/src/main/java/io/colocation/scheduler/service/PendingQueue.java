package io.colocation.scheduler.service;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The pods waiting for a node: highest {@code spec.priority} first, then in arrival order (kube-scheduler's PrioritySort);
 * a pod that found no node waits out a backoff that doubles from the initial delay up to the maximum.
 */
final class PendingQueue {
    /** @param seq arrival order: the tie-break among equal priorities (FIFO, like kube-scheduler's queue) */
    private record Entry(Pod pod, int attempts, Instant notBefore, long seq) {
    }

    private final Map<String, Entry> entries = new HashMap<>();
    private long arrivals;
    private final Clock clock;
    private final Duration initial;
    private final Duration max;

    PendingQueue(Clock clock, Duration initial, Duration max) {
        this.clock = clock;
        this.initial = initial;
        this.max = max;
    }

    /** A new pending pod, or a newer version of one (its backoff is kept). */
    synchronized void add(String key, Pod pod) {
        Entry e = entries.get(key);
        entries.put(key, e == null ? new Entry(pod, 0, Instant.MIN, arrivals++) : new Entry(pod, e.attempts(), e.notBefore(), e.seq()));
        notifyAll();
    }

    synchronized void remove(String key) {
        entries.remove(key);
    }

    /** The pod found no node: it is tried again after the backoff. */
    synchronized void backoff(String key) {
        Entry e = entries.get(key);
        if (e == null) {
            return;
        }
        long delay = Math.min(max.toMillis(), initial.toMillis() << Math.min(20, e.attempts()));
        entries.put(key, new Entry(e.pod(), e.attempts() + 1, clock.instant().plusMillis(delay), e.seq()));
    }

    synchronized int size() {
        return entries.size();
    }

    /** The next pod to try, taken off the queue; waits up to {@code wait} for one to be ready. */
    synchronized Optional<Map.Entry<String, Pod>> take(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Instant now = clock.instant();
            Optional<Map.Entry<String, Entry>> ready = entries.entrySet().stream()
                    .filter(e -> !e.getValue().notBefore().isAfter(now))
                    .min(Comparator.<Map.Entry<String, Entry>>comparingInt(e -> -priority(e.getValue().pod()))
                            .thenComparingLong(e -> e.getValue().seq()));
            if (ready.isPresent()) {
                Map.Entry<String, Entry> e = ready.get();
                // Kept (with its attempts) until bound or gone, so a failure can back it off; hidden until then.
                entries.put(e.getKey(), new Entry(e.getValue().pod(), e.getValue().attempts(), Instant.MAX, e.getValue().seq()));
                return Optional.of(Map.entry(e.getKey(), e.getValue().pod()));
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return Optional.empty();
            }
            wait(Math.max(1, Math.min(left / 1_000_000, 50)));
        }
    }

    private static int priority(Pod p) {
        return p.getSpec() == null || p.getSpec().getPriority() == null ? 0 : p.getSpec().getPriority();
    }
}
