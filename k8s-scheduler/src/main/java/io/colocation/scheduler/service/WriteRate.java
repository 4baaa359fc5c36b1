package io.colocation.scheduler.service;

/**
 * A client-side write rate as client-go's: a token bucket refilled at {@code qps} tokens a second holding at most
 * {@code burst}; a writer takes a token or waits for the next one.
 */
final class WriteRate {
    private final double nanosPerToken;
    private final double burst;
    private double tokens;
    private long refilledAt = System.nanoTime();

    WriteRate(double qps, int burst) {
        this.nanosPerToken = 1e9 / qps;
        this.burst = Math.max(1, burst);
        this.tokens = this.burst;
    }

    /** Takes a token, waiting as long as needed; returns false (no token) if interrupted. */
    synchronized boolean acquire() {
        while (true) {
            long now = System.nanoTime();
            tokens = Math.min(burst, tokens + (now - refilledAt) / nanosPerToken);
            refilledAt = now;
            if (tokens >= 1) {
                tokens -= 1;
                return true;
            }
            long waitNanos = (long) ((1 - tokens) * nanosPerToken);
            try {
                wait(Math.max(1, waitNanos / 1_000_000), (int) (waitNanos % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
