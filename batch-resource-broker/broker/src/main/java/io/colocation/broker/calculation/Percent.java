package io.colocation.broker.calculation;

/** Koordinator's percent arithmetic, in float64 and truncated, so results match the reference to the unit. */
final class Percent {
    private Percent() {
    }

    /**
     * {@code value × (100 - percent) / 100}, truncated: the safety margin, computed as
     * {@code MultiplyMilliQuant}/{@code MultiplyQuant} do.
     */
    static long ofRemainder(long value, long percent) {
        return (long) ((double) value * ((double) (100 - percent) / 100.0));
    }

    /** {@code value × percent / 100}, truncated, as Koordinator computes thresholds. */
    static long of(long value, long percent) {
        return (long) ((double) value * ((double) percent / 100.0));
    }
}
