package io.colocation.koordlet.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Koordinator's decaying_histogram_test.go figures, on the same linear test buckets. */
class DecayingHistogramTest {
    private static final BucketScheme TEST = new LinearBuckets(10, 1, 1e-15);
    private static final Instant START = Instant.ofEpochSecond(1_234_567_890L);
    private static final long HOUR = Duration.ofHours(1).toMillis();

    @Test
    void emptyHistogramGivesZero() {
        DecayingHistogram h = new DecayingHistogram(TEST, HOUR);
        for (double p = -0.5; p <= 1.5; p += 0.5) {
            assertEquals(0.0, h.percentile(p));
        }
    }

    @Test
    void simpleDecay() {
        DecayingHistogram h = new DecayingHistogram(TEST, HOUR);
        h.addSample(2, 1000, START);
        h.addSample(1, 1, START.plus(Duration.ofHours(20)));
        assertEquals(2, h.percentile(0.999), 1e-9);
        assertEquals(3, h.percentile(1.0), 1e-9);
    }

    @Test
    void longTermDecay() {
        DecayingHistogram h = new DecayingHistogram(TEST, HOUR);
        h.addSample(2, 1, START);
        h.addSample(1, 1, START.plus(Duration.ofHours(101)));
        assertEquals(2, h.percentile(1.0), 1e-9);
    }

    @Test
    void percentilesOfFourDecayedSamples() {
        DecayingHistogram h = new DecayingHistogram(TEST, HOUR);
        Instant t = START;
        for (int i = 1; i <= 4; i++) {
            h.addSample(i, i, t);
            t = t.plus(Duration.ofHours(1));
        }
        double[][] expected = {{0.00, 2}, {0.02, 2}, {0.03, 3}, {0.10, 3}, {0.11, 4}, {0.34, 4}, {0.35, 5}, {1.00, 5}};
        for (double[] e : expected) {
            assertEquals(e[1], h.percentile(e[0]), 1e-9, "percentile " + e[0]);
        }
    }

    @Test
    void noDecayAtOneInstant() {
        DecayingHistogram h = new DecayingHistogram(TEST, HOUR);
        for (int i = 1; i <= 4; i++) {
            h.addSample(i, i, START);
        }
        double[][] expected = {{0.0, 2}, {0.1, 2}, {0.2, 3}, {0.3, 3}, {0.4, 4}, {0.5, 4}, {0.6, 4}, {0.7, 5}, {0.8, 5}, {0.9, 5}, {1.0, 5}};
        for (double[] e : expected) {
            assertEquals(e[1], h.percentile(e[0]), 1e-9, "percentile " + e[0]);
        }
    }

    @Test
    void checkpointKeepsReferenceAndWeights() throws Exception {
        DecayingHistogram h = new DecayingHistogram(TEST, HOUR);
        h.addSample(2, 1, START.plus(Duration.ofHours(100)));
        DecayingHistogram.Checkpoint c = h.toCheckpoint();
        assertNotNull(c.reference());
        assertFalse(c.bucketWeights().isEmpty());
        assertTrue(c.totalWeight() > 0);
        DecayingHistogram back = new DecayingHistogram(TEST, HOUR);
        back.load(c);
        assertEquals(h.percentile(0.5), back.percentile(0.5));
    }

    @Test
    void loadFromCheckpoint() throws Exception {
        Instant ts = Instant.parse("2018-01-02T03:04:05Z");
        DecayingHistogram h = new DecayingHistogram(TEST, HOUR);
        h.load(new DecayingHistogram.Checkpoint(ts, Map.of(0, 1L), 6.0));
        assertFalse(h.isEmpty());
        assertEquals(ts, h.toCheckpoint().reference());
    }

    @Test
    void checkpointWithBucketOutsideTheSchemeIsRefused() {
        DecayingHistogram h = new DecayingHistogram(TEST, HOUR);
        assertThrows(java.io.IOException.class, () -> h.load(new DecayingHistogram.Checkpoint(START, Map.of(99, 1L), 1.0)));
        assertTrue(h.isEmpty());
    }

    @Test
    void predictionBucketsHaveKoordinatorsCounts() {
        assertEquals(158, ExponentialBuckets.CPU.numBuckets());
        assertEquals(205, ExponentialBuckets.MEMORY.numBuckets());
        assertEquals(0, ExponentialBuckets.CPU.findBucket(0.01));
        assertEquals(0.025, ExponentialBuckets.CPU.bucketStart(1), 1e-12);
    }
}
