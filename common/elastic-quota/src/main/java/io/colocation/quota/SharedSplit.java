package io.colocation.quota;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One parent's runtime of one resource split among its children, Koordinator's {@code quotaTree.redistribution}
 * (docs/koordinator-compatibility.md §15.3): each child starts at its min, or at its request when that is lower and it
 * lends; what is left goes by shared weight to the children still short of their request, again and again, never above
 * a child's request. Shares are rounded by largest remainder (each share floored, the units left one at a time to the
 * largest remainders, ties by name), so they always sum to what was shared (Koordinator's current
 * {@code computeHamiltonDeltas}; its v1.8.0 rounding could lose or invent a unit, §15.5).
 */
public final class SharedSplit {
    /** A child as the split sees it, in one resource. */
    public record Child(String name, long request, long min, long sharedWeight, boolean allowLent) {
    }

    private SharedSplit() {
    }

    /** Each child's runtime, in the order given. */
    public static long[] split(long total, List<Child> children) {
        long[] runtime = new long[children.size()];
        long left = total;
        long weight = 0;
        List<Integer> shortOf = new ArrayList<>();
        for (int i = 0; i < children.size(); i++) {
            Child c = children.get(i);
            if (c.request() > c.min()) {
                runtime[i] = c.min();
                shortOf.add(i);
                weight += c.sharedWeight();
            } else {
                runtime[i] = c.allowLent() ? c.request() : c.min();
            }
            left -= runtime[i];
        }
        while (left > 0 && weight > 0 && !shortOf.isEmpty()) {
            long[] deltas = largestRemainder(left, weight, shortOf, children);
            List<Integer> still = new ArrayList<>();
            long surplus = 0;
            long stillWeight = 0;
            for (int j = 0; j < shortOf.size(); j++) {
                int i = shortOf.get(j);
                runtime[i] += deltas[j];
                Child c = children.get(i);
                if (runtime[i] < c.request()) {
                    still.add(i);
                    stillWeight += c.sharedWeight();
                } else {
                    surplus += runtime[i] - c.request();
                    runtime[i] = c.request();
                }
            }
            left = surplus;
            weight = stillWeight;
            shortOf = still;
        }
        return runtime;
    }

    /** {@code total} split by weight, each floored (exactly, in 128 bits), the rest to the largest remainders. */
    private static long[] largestRemainder(long total, long weight, List<Integer> among, List<Child> children) {
        long[] deltas = new long[among.size()];
        long[] remainders = new long[among.size()];
        long given = 0;
        List<Integer> order = new ArrayList<>();
        for (int j = 0; j < among.size(); j++) {
            long w = children.get(among.get(j)).sharedWeight();
            if (w <= 0) {
                continue;
            }
            long[] qr = divide(w, total, weight);
            deltas[j] = qr[0];
            remainders[j] = qr[1];
            given += qr[0];
            order.add(j);
        }
        long residual = total - given;
        order.sort(Comparator.<Integer>comparingLong(j -> remainders[j]).reversed()
                .thenComparing(j -> children.get(among.get(j)).name()));
        for (int k = 0; k < order.size() && residual > 0; k++, residual--) {
            deltas[order.get(k)]++;
        }
        return deltas;
    }

    /** The quotient and remainder of {@code a × b / divisor}, exact however large the product (Go's bits.Mul64/Div64). */
    private static long[] divide(long a, long b, long divisor) {
        if (Math.multiplyHigh(a, b) == 0 && a * b >= 0) {
            long product = a * b;
            return new long[] {product / divisor, product % divisor};
        }
        BigInteger[] qr = BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).divideAndRemainder(BigInteger.valueOf(divisor));
        return new long[] {qr[0].longValueExact(), qr[1].longValueExact()};
    }
}
