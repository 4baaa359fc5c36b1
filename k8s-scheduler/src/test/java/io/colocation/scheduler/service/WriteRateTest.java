package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The client write rate: a burst at once, then one token per 1/qps. */
class WriteRateTest {
    @Test
    void burstThenRate() {
        WriteRate rate = new WriteRate(200, 10);
        long start = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            assertTrue(rate.acquire());
        }
        long burstMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(burstMs < 1000, "the burst does not wait: " + burstMs + " ms");
        long afterBurst = System.nanoTime();
        for (int i = 0; i < 40; i++) {
            assertTrue(rate.acquire());
        }
        long ms = (System.nanoTime() - afterBurst) / 1_000_000;
        assertTrue(ms >= 190, "40 tokens at 200/s take at least 200 ms (less the refill meanwhile): " + ms + " ms");
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
