package io.colocation.simulator.real.yarn;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** What happened to YARN's tasks in a run (containers other than ApplicationMasters), and their queueing delays. */
public final class YarnCounters {
    final AtomicLong applicationsSubmitted = new AtomicLong();
    final AtomicLong applicationsFinished = new AtomicLong();
    final AtomicLong submitted = new AtomicLong();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong preempted = new AtomicLong();
    /** killed by the koordlet through the NodeManager (its copilot) */
    final AtomicLong killed = new AtomicLong();
    /** killed by the host's kernel (out of memory) */
    final AtomicLong oomKilled = new AtomicLong();
    /** other failed attempts (exit status neither 0 nor PREEMPTED), run again */
    final AtomicLong failed = new AtomicLong();
    private final List<Long> queueingMillis = new ArrayList<>();

    synchronized void queued(long millis) {
        queueingMillis.add(millis);
    }

    public synchronized List<Long> queueingMillis() {
        return new ArrayList<>(queueingMillis);
    }

    public long applicationsSubmitted() {
        return applicationsSubmitted.get();
    }

    public long applicationsFinished() {
        return applicationsFinished.get();
    }

    public long submitted() {
        return submitted.get();
    }

    public long completed() {
        return completed.get();
    }

    public long preempted() {
        return preempted.get();
    }

    public long killed() {
        return killed.get();
    }

    public long oomKilled() {
        return oomKilled.get();
    }

    public long failed() {
        return failed.get();
    }
}
