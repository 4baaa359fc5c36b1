package io.colocation.koordlet.predict;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * Koordinator's (and VPA's) decaying histogram: a sample added at time {@code t} weighs
 * {@code 2^((t − ref)/halfLife)}, so older samples count half as much per half-life. The reference time moves
 * forward (and all weights shrink) when the exponent would pass 100. Percentiles return the end of the bucket
 * where the cumulative weight reaches the share (docs/koordinator-compatibility.md §13).
 */
public final class DecayingHistogram {
    private static final int MAX_DECAY_EXPONENT = 100;
    /** Go's zero time, 0001-01-01T00:00:00Z, in epoch seconds: reference times are rounded relative to it. */
    private static final long GO_ZERO_EPOCH_SECONDS = -62_135_596_800L;
    /** Weight of the largest bucket in a checkpoint (Go's MaxCheckpointWeight). */
    static final long MAX_CHECKPOINT_WEIGHT = 10_000;

    private final BucketScheme scheme;
    private final long halfLifeMillis;
    private final double[] weights;
    private double totalWeight;
    private int minBucket;
    private int maxBucket;
    /** Null is Go's zero time (nothing added yet). */
    private Instant reference;

    public DecayingHistogram(BucketScheme scheme, long halfLifeMillis) {
        this.scheme = scheme;
        this.halfLifeMillis = halfLifeMillis;
        this.weights = new double[scheme.numBuckets()];
        this.minBucket = scheme.numBuckets() - 1;
        this.maxBucket = 0;
    }

    public void addSample(double value, double weight, Instant time) {
        if (weight < 0) {
            throw new IllegalArgumentException("sample weight must be non-negative");
        }
        double w = weight * decayFactor(time);
        int bucket = scheme.findBucket(value);
        weights[bucket] += w;
        totalWeight += w;
        if (bucket < minBucket && weights[bucket] >= scheme.epsilon()) {
            minBucket = bucket;
        }
        if (bucket > maxBucket && weights[bucket] >= scheme.epsilon()) {
            maxBucket = bucket;
        }
    }

    private double decayFactor(Instant time) {
        if (reference == null || time.isAfter(reference.plusMillis(halfLifeMillis * MAX_DECAY_EXPONENT))) {
            shiftReference(time);
        }
        return Math.pow(2, (double) (time.toEpochMilli() - reference.toEpochMilli()) / halfLifeMillis);
    }

    private void shiftReference(Instant time) {
        Instant rounded = roundToHalfLife(time);
        if (reference != null) {
            // Go rounds half away from zero.
            double exponent = Math.round((double) (reference.toEpochMilli() - rounded.toEpochMilli()) / halfLifeMillis);
            scale(Math.pow(2, exponent));
        } else {
            // From Go's zero time the exponent is so negative that every weight becomes 0.
            scale(0);
        }
        reference = rounded;
    }

    /** Go's {@code Time.Round(halfLife)}: to the nearest multiple since 0001-01-01 UTC, halves up. */
    private Instant roundToHalfLife(Instant time) {
        long sinceZero = time.toEpochMilli() - GO_ZERO_EPOCH_SECONDS * 1000;
        long r = Math.floorMod(sinceZero, halfLifeMillis);
        long down = sinceZero - r;
        long rounded = r * 2 >= halfLifeMillis ? down + halfLifeMillis : down;
        return Instant.ofEpochMilli(rounded + GO_ZERO_EPOCH_SECONDS * 1000);
    }

    private void scale(double factor) {
        for (int b = minBucket; b <= maxBucket; b++) {
            weights[b] *= factor;
        }
        totalWeight *= factor;
        updateMinAndMax();
    }

    private void updateMinAndMax() {
        int last = scheme.numBuckets() - 1;
        while (weights[minBucket] < scheme.epsilon() && minBucket < last) {
            minBucket++;
        }
        while (weights[maxBucket] < scheme.epsilon() && maxBucket > 0) {
            maxBucket--;
        }
    }

    public boolean isEmpty() {
        return weights[minBucket] < scheme.epsilon();
    }

    /** {@code p} in [0, 1]; 0 when empty. */
    public double percentile(double p) {
        if (isEmpty()) {
            return 0;
        }
        double partial = 0;
        double threshold = p * totalWeight;
        int bucket = minBucket;
        for (; bucket < maxBucket; bucket++) {
            partial += weights[bucket];
            if (partial >= threshold) {
                break;
            }
        }
        return bucket < scheme.numBuckets() - 1 ? scheme.bucketStart(bucket + 1) : scheme.bucketStart(bucket);
    }

    /** The checkpoint form: bucket → weight scaled so the largest is 10,000, zeros dropped. */
    public Checkpoint toCheckpoint() {
        Map<Integer, Long> buckets = new TreeMap<>();
        double max = 0;
        for (int b = minBucket; b <= maxBucket; b++) {
            max = Math.max(max, weights[b]);
        }
        if (max > 0) {
            double ratio = MAX_CHECKPOINT_WEIGHT / max;
            for (int b = minBucket; b <= maxBucket; b++) {
                long w = (long) Math.floor(weights[b] * ratio + 0.5);
                if (w > 0) {
                    buckets.put(b, w);
                }
            }
        }
        return new Checkpoint(reference, buckets, totalWeight);
    }

    /** Adds a checkpoint's weights; an index outside the scheme is an error and leaves the histogram unchanged. */
    public void load(Checkpoint c) throws java.io.IOException {
        if (c.totalWeight() < 0) {
            throw new java.io.IOException("negative totalWeight " + c.totalWeight());
        }
        long sum = 0;
        for (Map.Entry<Integer, Long> e : c.bucketWeights().entrySet()) {
            if (e.getKey() < 0 || e.getKey() >= scheme.numBuckets()) {
                throw new java.io.IOException("bucket " + e.getKey() + " outside 0.." + (scheme.numBuckets() - 1));
            }
            if (e.getValue() < 0) {
                throw new java.io.IOException("negative weight in bucket " + e.getKey());
            }
            sum += e.getValue();
        }
        reference = c.reference();
        if (sum == 0) {
            return;
        }
        double ratio = c.totalWeight() / sum;
        for (Map.Entry<Integer, Long> e : c.bucketWeights().entrySet()) {
            int b = e.getKey();
            minBucket = Math.min(minBucket, b);
            maxBucket = Math.max(maxBucket, b);
            weights[b] += e.getValue() * ratio;
        }
        totalWeight += c.totalWeight();
    }

    /** @param reference null for Go's zero time */
    public record Checkpoint(Instant reference, Map<Integer, Long> bucketWeights, double totalWeight) {
    }
}
