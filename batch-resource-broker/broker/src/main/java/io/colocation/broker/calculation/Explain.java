package io.colocation.broker.calculation;

import java.math.BigDecimal;

/** Number formats of Koordinator's explanation messages. */
final class Explain {
    private static final long GIGA = 1_000_000_000L;

    private Explain() {
    }

    /** apimachinery {@code ScaledValue(resource.Giga)}: whole 10^9 units, rounded up. */
    static long gb(long bytes) {
        return -Math.floorDiv(-bytes, GIGA);
    }

    /** Go's {@code %v} of a float64 ratio (0.5, 1, 0.65). */
    static String ratio(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
