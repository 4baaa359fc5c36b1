package io.colocation.quota;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * How long each quota has used more than its runtime (Koordinator's {@code QuotaOverUsedGroupMonitor}): a quota is due
 * for revocation once its overuse has lasted longer than {@code delayEvictTime}, and its timer then starts again, so a
 * quota still over after the evictions waits another delay. A quota first seen starts its timer then. Not thread-safe.
 */
public final class QuotaOveruse {
    private final Duration delay;
    private final Map<String, Instant> lastWithin = new HashMap<>();

    public QuotaOveruse(Duration delay) {
        this.delay = delay;
    }

    /** Whether the quota's pods are to be revoked now; {@code overused}: its used is not within its runtime now. */
    public boolean due(String quota, boolean overused, Instant now) {
        Instant since = lastWithin.computeIfAbsent(quota, q -> now);
        if (!overused) {
            lastWithin.put(quota, now);
            return false;
        }
        if (Duration.between(since, now).compareTo(delay) > 0) {
            lastWithin.put(quota, now);
            return true;
        }
        return false;
    }

    /** Forgets the quotas not among {@code quotas} (deleted). */
    public void retain(Set<String> quotas) {
        lastWithin.keySet().retainAll(quotas);
    }

    /** Whether {@code used} exceeds {@code runtime} on a name of {@code runtime}. */
    public static boolean overused(ResourceAmounts used, ResourceAmounts runtime) {
        return !QuotaAdmission.exceeded(used, runtime).isEmpty();
    }
}
