package io.colocation.quota;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongBinaryOperator;

/**
 * Amounts by resource name in Koordinator's integer units (cpu in milli-cores, every other resource its
 * {@code Quantity.Value()}); a name absent is 0. Immutable.
 */
public final class ResourceAmounts {
    public static final ResourceAmounts NONE = new ResourceAmounts(new TreeMap<>());
    private final TreeMap<String, Long> amounts;

    private ResourceAmounts(TreeMap<String, Long> amounts) {
        this.amounts = amounts;
    }

    public static ResourceAmounts of(Map<String, Long> amounts) {
        return new ResourceAmounts(new TreeMap<>(amounts));
    }

    /** Pairs of name and amount: {@code of("cpu", 1000, "memory", 1 << 30)}. */
    public static ResourceAmounts of(Object... namesAndAmounts) {
        TreeMap<String, Long> m = new TreeMap<>();
        for (int i = 0; i < namesAndAmounts.length; i += 2) {
            m.put((String) namesAndAmounts[i], ((Number) namesAndAmounts[i + 1]).longValue());
        }
        return new ResourceAmounts(m);
    }

    public long get(String name) {
        return amounts.getOrDefault(name, 0L);
    }

    public boolean has(String name) {
        return amounts.containsKey(name);
    }

    public Set<String> names() {
        return Collections.unmodifiableSet(amounts.keySet());
    }

    public Map<String, Long> asMap() {
        return Collections.unmodifiableMap(amounts);
    }

    public boolean isEmpty() {
        return amounts.isEmpty();
    }

    /** Σ of both, over the names of either. */
    public ResourceAmounts plus(ResourceAmounts other) {
        return other.isEmpty() ? this : isEmpty() ? other : combine(other, Math::addExact);
    }

    /** This less {@code other}, never below 0 (Koordinator's {@code SubtractWithNonNegativeResult}). */
    public ResourceAmounts minusNonNegative(ResourceAmounts other) {
        return combine(other, (a, b) -> Math.max(a - b, 0));
    }

    /** This less {@code other}, possibly below 0 (Kubernetes' {@code quota.Subtract}). */
    public ResourceAmounts minus(ResourceAmounts other) {
        return other.isEmpty() ? this : combine(other, Math::subtractExact);
    }

    /** Without the names whose amount is 0 (Kubernetes' {@code quota.RemoveZeros}). */
    public ResourceAmounts withoutZeros() {
        TreeMap<String, Long> m = new TreeMap<>(amounts);
        m.values().removeIf(v -> v == 0);
        return new ResourceAmounts(m);
    }

    /** Only the names in {@code names}. */
    public ResourceAmounts masked(Set<String> names) {
        TreeMap<String, Long> m = new TreeMap<>();
        amounts.forEach((k, v) -> {
            if (names.contains(k)) {
                m.put(k, v);
            }
        });
        return new ResourceAmounts(m);
    }

    /** Each amount capped at {@code max}'s for the names {@code max} has; the others as they are. */
    public ResourceAmounts cappedAt(ResourceAmounts max) {
        TreeMap<String, Long> m = new TreeMap<>(amounts);
        m.replaceAll((k, v) -> max.has(k) ? Math.min(v, max.get(k)) : v);
        return new ResourceAmounts(m);
    }

    /** With {@code name} set to {@code amount}. */
    public ResourceAmounts with(String name, long amount) {
        TreeMap<String, Long> m = new TreeMap<>(amounts);
        m.put(name, amount);
        return new ResourceAmounts(m);
    }

    private ResourceAmounts combine(ResourceAmounts other, LongBinaryOperator op) {
        TreeMap<String, Long> m = new TreeMap<>(amounts);
        for (String k : other.amounts.keySet()) {
            m.putIfAbsent(k, 0L);
        }
        m.replaceAll((k, v) -> op.applyAsLong(v, other.get(k)));
        return new ResourceAmounts(m);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResourceAmounts r && amounts.equals(r.amounts);
    }

    @Override
    public int hashCode() {
        return amounts.hashCode();
    }

    @Override
    public String toString() {
        return amounts.toString();
    }
}
