package io.colocation.koordlet.predict;

/**
 * Exponentially growing buckets (docs/koordinator-compatibility.md §13): bucket {@code b} starts at
 * {@code first × (r^b − 1)/(r − 1)}; the last bucket has no upper bound.
 */
public record ExponentialBuckets(double maxValue, double firstBucketSize, double ratio, double epsilon, int numBuckets)
        implements BucketScheme {
    /** Epsilon of Koordinator's predict server: 0.001 × MinSampleWeight (0.1). */
    public static final double PREDICTION_EPSILON = 0.001 * 0.1;
    /** CPU in cores: up to 1024, first bucket 0.025 core, 5 % growth. */
    public static final ExponentialBuckets CPU = of(1024, 0.025, 1.05, PREDICTION_EPSILON);
    /** Memory in bytes: up to 2 TiB, first bucket 5 MiB, 5 % growth. */
    public static final ExponentialBuckets MEMORY = of(1L << 41, 5 << 20, 1.05, PREDICTION_EPSILON);

    public static ExponentialBuckets of(double maxValue, double firstBucketSize, double ratio, double epsilon) {
        int n = (int) Math.ceil(Math.log(maxValue * (ratio - 1) / firstBucketSize + 1) / Math.log(ratio)) + 1;
        return new ExponentialBuckets(maxValue, firstBucketSize, ratio, epsilon, n);
    }

    @Override
    public int findBucket(double value) {
        if (value < firstBucketSize) {
            return 0;
        }
        int bucket = (int) (Math.log(value * (ratio - 1) / firstBucketSize + 1) / Math.log(ratio));
        return Math.min(bucket, numBuckets - 1);
    }

    @Override
    public double bucketStart(int bucket) {
        return bucket == 0 ? 0 : firstBucketSize * (Math.pow(ratio, bucket) - 1) / (ratio - 1);
    }
}
