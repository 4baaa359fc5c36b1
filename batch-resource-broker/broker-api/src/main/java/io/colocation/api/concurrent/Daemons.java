package io.colocation.api.concurrent;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

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
}
