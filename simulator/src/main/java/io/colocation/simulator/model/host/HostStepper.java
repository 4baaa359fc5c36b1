package io.colocation.simulator.model.host;

import io.colocation.helpers.concurrent.Daemons;
import io.colocation.helpers.time.ScaledClock;
import io.colocation.simulator.real.HostAgent;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives every simulated host and its agent one step every {@code step} of simulated time, on a few threads shared by
 * all of them (a thousand agents with their own threads would be thousands of threads on two cores). A round that
 * takes longer than the step's wall time delays the next one: the hosts then integrate the longer step, and the lag is
 * counted ({@link #lateRounds()}).
 */
public final class HostStepper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HostStepper.class);

    private final List<HostAgent> agents;
    private final ScaledClock clock;
    private final long stepRealNanos;
    private final int threads;
    private final ExecutorService pool;
    /** The agents' periodic work (NodeMetric reports, training): API writes, off the hosts' clock. */
    private final ExecutorService work = Executors.newFixedThreadPool(16, Daemons.named("koordlet-work"));
    private final Thread driver;
    private final AtomicLong rounds = new AtomicLong();
    private final AtomicLong lateRounds = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong busyNanos = new AtomicLong();
    private volatile boolean stopped;

    public HostStepper(List<HostAgent> agents, ScaledClock clock, long stepSimulatedMillis, int threads) {
        this.agents = agents;
        this.clock = clock;
        this.stepRealNanos = TimeUnit.MILLISECONDS.toNanos(clock.real(stepSimulatedMillis));
        this.threads = threads;
        this.pool = Executors.newFixedThreadPool(threads, Daemons.named("host-step"));
        this.driver = new Thread(this::drive, "host-stepper");
        this.driver.setDaemon(true);
    }

    public void start() {
        driver.start();
    }

    private void drive() {
        long next = System.nanoTime();
        while (!stopped) {
            long start = System.nanoTime();
            round();
            long took = System.nanoTime() - start;
            busyNanos.addAndGet(took);
            rounds.incrementAndGet();
            next += stepRealNanos;
            long wait = next - System.nanoTime();
            if (wait < 0) {
                lateRounds.incrementAndGet();
                next = System.nanoTime();
            } else {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private void round() {
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            int first = t;
            pool.execute(() -> {
                try {
                    for (int i = first; i < agents.size(); i += threads) {
                        try {
                            agents.get(i).step(clock.millis(), work);
                        } catch (RuntimeException e) {
                            if (failures.incrementAndGet() % 1000 == 1) {
                                LOG.warn("host {}: a step failed: {}", agents.get(i).host().name(), e.toString(), e);
                            }
                        }
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }

    public long rounds() {
        return rounds.get();
    }

    /** Rounds that took longer than a step's wall time. */
    public long lateRounds() {
        return lateRounds.get();
    }

    public long failures() {
        return failures.get();
    }

    /** The share of wall time the rounds took, 0 to 1 (1: the steps cannot keep up with the clock). */
    public double busy(long sinceNanos) {
        long wall = System.nanoTime() - sinceNanos;
        return wall <= 0 ? 0 : Math.min(1, busyNanos.get() / (double) wall);
    }

    @Override
    public void close() {
        stopped = true;
        driver.interrupt();
        try {
            driver.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pool.shutdownNow();
        work.shutdownNow();
    }
}
