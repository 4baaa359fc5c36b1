package io.colocation.simulator.measure;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What happened to YARN's tasks in a run (containers other than ApplicationMasters), and their queueing delays; each
 * engine's YARN counts here.
 */
public final class YarnCounters {
    private final AtomicLong applicationsSubmitted = new AtomicLong();
    private final AtomicLong applicationsFinished = new AtomicLong();
    /** ended by the RM when their ApplicationMaster failed as often as they may try */
    private final AtomicLong applicationsFailed = new AtomicLong();
    private final AtomicLong submitted = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong preempted = new AtomicLong();
    /** killed by the koordlet through the NodeManager (its copilot) */
    private final AtomicLong killed = new AtomicLong();
    /** killed by the host's kernel (out of memory) */
    private final AtomicLong oomKilled = new AtomicLong();
    /** other failed attempts (exit status neither 0 nor PREEMPTED), run again */
    private final AtomicLong failed = new AtomicLong();
    private final Durations queueingMillis = new Durations();

    public void applicationSubmitted(int tasks) {
        applicationsSubmitted.incrementAndGet();
        submitted.addAndGet(tasks);
    }

    public void applicationFinished() {
        applicationsFinished.incrementAndGet();
    }

    public void applicationFailed() {
        applicationsFailed.incrementAndGet();
    }

    public void taskCompleted() {
        completed.incrementAndGet();
    }

    public void taskPreempted() {
        preempted.incrementAndGet();
    }

    public void taskKilled() {
        killed.incrementAndGet();
    }

    public void taskOomKilled() {
        oomKilled.incrementAndGet();
    }

    public void taskFailed() {
        failed.incrementAndGet();
    }

    /** A task got its container {@code millis} after it asked for it. */
    public void queued(long millis) {
        queueingMillis.add(millis);
    }

    public Durations queueingMillis() {
        return queueingMillis;
    }

    public long applicationsSubmitted() {
        return applicationsSubmitted.get();
    }

    public long applicationsFinished() {
        return applicationsFinished.get();
    }

    public long applicationsFailed() {
        return applicationsFailed.get();
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
