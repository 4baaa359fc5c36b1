package io.colocation.koordlet.predict;

/** VPA's linear buckets, the scheme of Koordinator's histogram tests ({@code NewLinearHistogramOptions(10, 1, 1e-15)}). */
record LinearBuckets(double maxValue, double bucketSize, double epsilon) implements BucketScheme {
    @Override
    public int numBuckets() {
        return (int) Math.ceil(maxValue / bucketSize) + 1;
    }

    @Override
    public int findBucket(double value) {
        int bucket = (int) (value / bucketSize);
        return Math.max(0, Math.min(bucket, numBuckets() - 1));
    }

    @Override
    public double bucketStart(int bucket) {
        return bucket * bucketSize;
    }
}
