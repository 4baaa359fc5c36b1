package io.colocation.scheduler.service;

import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.WaitingPods;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The pods reserved on a node and waiting at Permit (kube-scheduler's waiting pods map): each leaves by
 * {@link #allow} (on to binding), {@link #reject} (its room released, tried again later) or by its deadline passing
 * ({@link #expire}). What follows runs outside this map's lock, so a plugin reacting to one pod may allow or reject
 * others.
 */
final class PermitWaits implements WaitingPods {
    /** A waiting pod: its cycle's state (for unreserve), node, deadline, what it waits for, and its attempt's start. */
    record Entry(PodInfo pod, CycleState state, String node, Instant deadline, String waitingFor, long startNanos) {
    }

    private final Map<String, Entry> waiting = new LinkedHashMap<>();
    private final Consumer<Entry> allowed;
    private final BiConsumer<Entry, String> rejected;

    PermitWaits(Consumer<Entry> allowed, BiConsumer<Entry, String> rejected) {
        this.allowed = allowed;
        this.rejected = rejected;
    }

    synchronized void add(Entry e) {
        waiting.put(e.pod().key(), e);
    }

    @Override
    public synchronized List<Waiting> list() {
        List<Waiting> out = new ArrayList<>();
        waiting.values().forEach(e -> out.add(new Waiting(e.pod(), e.node())));
        return out;
    }

    synchronized boolean contains(String podKey) {
        return waiting.containsKey(podKey);
    }

    synchronized int size() {
        return waiting.size();
    }

    private synchronized Entry take(String podKey) {
        return waiting.remove(podKey);
    }

    @Override
    public boolean allow(String podKey) {
        Entry e = take(podKey);
        if (e != null) {
            allowed.accept(e);
        }
        return e != null;
    }

    @Override
    public boolean reject(String podKey, String reason) {
        Entry e = take(podKey);
        if (e != null) {
            rejected.accept(e, reason);
        }
        return e != null;
    }

    /** Rejects every pod whose wait ran out by {@code now}. */
    void expire(Instant now) {
        List<Entry> due = new ArrayList<>();
        synchronized (this) {
            waiting.values().stream().filter(e -> !e.deadline().isAfter(now)).forEach(due::add);
        }
        for (Entry e : due) {
            reject(e.pod().key(), "not permitted within its waiting time (" + e.waitingFor() + ")");
        }
    }

    /** Rejects every waiting pod (this replica stops scheduling). */
    void rejectAll(String reason) {
        List<String> keys;
        synchronized (this) {
            keys = new ArrayList<>(waiting.keySet());
        }
        keys.forEach(k -> reject(k, reason));
    }
}
