package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The client write rate: a burst at once, then one token per 1/qps. */
class WriteRateTest {
    @Test
    void burstThenRate() {
        long made = System.nanoTime();
        WriteRate rate = new WriteRate(200, 10);
        long start = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            assertTrue(rate.acquire());
        }
        long burstMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(burstMs < 1000, "the burst does not wait: " + burstMs + " ms");
        for (int i = 0; i < 40; i++) {
            assertTrue(rate.acquire());
        }
        // 50 tokens, of which the bucket held 10: the other 40 came at 200/s, however long the burst itself took.
        long ms = (System.nanoTime() - made) / 1_000_000;
        assertTrue(ms >= 199, "50 tokens from a bucket of 10 at 200/s take at least 200 ms from its making: " + ms + " ms");
    }

    @Test
    void anInterruptedWriterGetsNoToken() {
        WriteRate rate = new WriteRate(0.001, 1);
        assertTrue(rate.acquire());
        Thread.currentThread().interrupt();
        assertTrue(!rate.acquire());
        assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
    }
}
