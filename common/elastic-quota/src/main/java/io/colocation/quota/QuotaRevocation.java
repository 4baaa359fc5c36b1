package io.colocation.quota;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which of an overused quota's pods Koordinator's {@code QuotaOverUsedRevokeController} evicts
 * (docs/koordinator-compatibility.md §15.4, {@code getToRevokePodList}): its assigned preemptible pods, least important
 * first, are taken off until {@code used ≤ runtime}; when that is not reached every one taken off goes, otherwise each
 * is put back, the most important first, while the quota stays within its runtime, and the rest go.
 */
public final class QuotaRevocation {
    /** The reason of the Warning Event each revoked pod gets (ours; Koordinator records none). */
    public static final String EVENT_REASON = "QuotaOverUsedRevoked";

    /** Least important first: lower priority, then the later start (Kubernetes' {@code MoreImportantPod} reversed), then key. */
    static final Comparator<Candidate> LEAST_IMPORTANT_FIRST = Comparator.comparingInt(Candidate::priority)
            .thenComparing(Candidate::started, Comparator.reverseOrder()).thenComparing(Candidate::key);

    private QuotaRevocation() {
    }

    /**
     * An assigned preemptible pod of the quota.
     *
     * @param started its {@code status.startTime}, or now when it has none (as Kubernetes' {@code GetPodStartTime})
     * @param request its requests in quota units
     */
    public record Candidate(String key, int priority, Instant started, ResourceAmounts request) {
    }

    /** The pods to evict so that {@code used} (the quota's, its subtree's included) comes within {@code runtime}. */
    public static List<Candidate> victims(ResourceAmounts used, ResourceAmounts runtime, List<Candidate> assigned) {
        List<Candidate> order = new ArrayList<>(assigned);
        order.sort(LEAST_IMPORTANT_FIRST);
        List<Candidate> takenOff = new ArrayList<>();
        ResourceAmounts left = used;
        for (Candidate c : order) {
            if (within(left, runtime)) {
                break;
            }
            left = left.minus(c.request());
            takenOff.add(c);
        }
        if (!within(left, runtime)) {
            return takenOff;
        }
        List<Candidate> evicted = new ArrayList<>();
        for (int i = takenOff.size() - 1; i >= 0; i--) {
            Candidate c = takenOff.get(i);
            ResourceAmounts back = left.plus(c.request());
            if (within(back, runtime)) {
                left = back;
            } else {
                evicted.add(c);
            }
        }
        return evicted;
    }

    private static boolean within(ResourceAmounts used, ResourceAmounts runtime) {
        return !QuotaOveruse.overused(used, runtime);
    }
}
