package io.colocation.quota;

/**
 * What a quota's pods add up to, each pod's requests masked to the quota's max names (Koordinator's {@code Request}
 * of its own pods, {@code Used}, {@code NonPreemptibleRequest}, {@code NonPreemptibleUsed}): every live pod is
 * requested, the ones on a node are used too.
 */
public record QuotaUsage(ResourceAmounts request, ResourceAmounts used, ResourceAmounts nonPreemptibleRequest,
        ResourceAmounts nonPreemptibleUsed) {
    public static final QuotaUsage NONE = new QuotaUsage(ResourceAmounts.NONE, ResourceAmounts.NONE, ResourceAmounts.NONE,
            ResourceAmounts.NONE);

    /** The usage of one pod in a quota whose max names {@code max}. */
    public static QuotaUsage of(QuotaPod pod, ResourceAmounts max) {
        ResourceAmounts r = pod.request().masked(max.names());
        boolean np = pod.nonPreemptible();
        return new QuotaUsage(r, pod.assigned() ? r : ResourceAmounts.NONE, np ? r : ResourceAmounts.NONE,
                np && pod.assigned() ? r : ResourceAmounts.NONE);
    }

    /** Only the names in {@code names}: a child's usage as its parent counts it. */
    public QuotaUsage masked(java.util.Set<String> names) {
        return new QuotaUsage(request.masked(names), used.masked(names), nonPreemptibleRequest.masked(names),
                nonPreemptibleUsed.masked(names));
    }

    public QuotaUsage plus(QuotaUsage o) {
        return new QuotaUsage(request.plus(o.request), used.plus(o.used), nonPreemptibleRequest.plus(o.nonPreemptibleRequest),
                nonPreemptibleUsed.plus(o.nonPreemptibleUsed));
    }

    public QuotaUsage minus(QuotaUsage o) {
        return new QuotaUsage(request.minusNonNegative(o.request), used.minusNonNegative(o.used),
                nonPreemptibleRequest.minusNonNegative(o.nonPreemptibleRequest), nonPreemptibleUsed.minusNonNegative(o.nonPreemptibleUsed));
    }
}
