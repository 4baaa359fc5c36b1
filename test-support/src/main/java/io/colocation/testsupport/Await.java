package io.colocation.testsupport;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/** Polls a condition the systems under test reach asynchronously. */
public final class Await {
    private Await() {
    }

    /** Returns once {@code condition} holds; fails with a {@link TimeoutException} after {@code timeout}. */
    public static void until(Duration timeout, BooleanSupplier condition) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("condition not met within " + timeout);
            }
            Thread.sleep(20);
        }
    }
}
