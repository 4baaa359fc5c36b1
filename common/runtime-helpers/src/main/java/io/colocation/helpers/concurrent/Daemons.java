package io.colocation.helpers.concurrent;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** The one thread factory of every part: daemon threads (a part's loops never keep its JVM alive) named for what they do. */
public final class Daemons {
    private Daemons() {
    }

    /** Threads named {@code name}, then {@code name-2}, {@code name-3} for a pool's further threads. */
    public static ThreadFactory named(String name) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            int n = count.incrementAndGet();
            Thread t = new Thread(r, n == 1 ? name : name + "-" + n);
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Runs {@code task} on {@code timer} every {@code millis}; a run that fails goes to {@code failure} and the next run
     * comes all the same (an exception escaping a scheduled task would cancel every later run, silently).
     */
    public static void every(ScheduledExecutorService timer, long millis, Runnable task, Consumer<RuntimeException> failure) {
        timer.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                failure.accept(e);
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Stops {@code pools} (their threads interrupted) and waits up to {@code seconds} for each to end. */
    public static void stop(long seconds, ExecutorService... pools) {
        for (ExecutorService p : pools) {
            p.shutdownNow();
        }
        try {
            for (ExecutorService p : pools) {
                p.awaitTermination(seconds, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
