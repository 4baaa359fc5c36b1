package io.colocation.broker.reconcile;

import io.colocation.helpers.concurrent.Daemons;
import io.colocation.helpers.log.DistinctWarnings;
import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a pass ({@link BrokerReconciler#reconcileAll()}, or the NodeMetric/NodeSLO controllers) on its own
 * thread: at least every {@code interval} (YARN's acknowledgements and reports arrive between Kubernetes
 * events), and {@code debounce} after a change is signalled (informer events, admin tasks), so a burst of
 * events costs one pass. A pass that left work for the next (a full pass in slices) is followed by the next at once.
 */
public final class ArbitrationLoop implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(ArbitrationLoop.class);

    private final String name;
    /** One pass; true when the next is due at once. */
    private final java.util.function.BooleanSupplier pass;
    private final Duration interval;
    private final Duration debounce;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private boolean pending;
    private volatile boolean running;
    private Thread thread;
    private final DistinctWarnings failures = new DistinctWarnings(LOG);

    public ArbitrationLoop(BrokerReconciler reconciler, Duration interval, Duration debounce) {
        this("broker-arbitration", () -> reconciler.reconcileAll().sweeping(), interval, debounce);
    }

    /** A loop running {@code pass} on its own thread {@code name}. */
    public ArbitrationLoop(String name, Runnable pass, Duration interval, Duration debounce) {
        this(name, () -> {
            pass.run();
            return false;
        }, interval, debounce);
    }

    private ArbitrationLoop(String name, java.util.function.BooleanSupplier pass, Duration interval, Duration debounce) {
        this.name = name;
        this.pass = pass;
        this.interval = interval;
        this.debounce = debounce;
    }

    public void start() {
        running = true;
        thread = Daemons.named(name).newThread(this::run);
        thread.start();
    }

    /** Something changed: run a pass soon. */
    public void wake() {
        lock.lock();
        try {
            pending = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        boolean again = false;
        while (running) {
            try {
                if (!again) {
                    lock.lock();
                    try {
                        if (!pending) {
                            changed.await(interval.toMillis(), TimeUnit.MILLISECONDS);
                        }
                    } finally {
                        lock.unlock();
                    }
                    if (pending) {
                        Thread.sleep(debounce.toMillis());
                    }
                }
                lock.lock();
                try {
                    pending = false;
                } finally {
                    lock.unlock();
                }
                again = pass.getAsBoolean();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                again = false; // a pass that failed waits for the interval
                LOG.debug("broker pass failed", e);
                failures.warn(name + " pass", "failed (" + e + "); the next one runs in " + interval.toMillis() + " ms");
            }
        }
    }

    @Override
    public void close() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
