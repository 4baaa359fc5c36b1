package io.colocation.koordlet.predict;

/** How a histogram maps values to buckets (Koordinator's / VPA's {@code HistogramOptions}). */
public interface BucketScheme {
    int numBuckets();

    int findBucket(double value);

    double bucketStart(int bucket);

    /** Weight below which a bucket counts as empty. */
    double epsilon();
}
