package io.colocation.quota;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Koordinator's ElasticQuota PreFilter check as a pure function (docs/koordinator-compatibility.md §15.4): a pod is
 * admitted when {@code used + request ≤ runtime} (or max, without runtime quota) on every resource both name; a
 * non-preemptible pod also when {@code nonPreemptibleUsed + request ≤ min} (the original min); with the parent check,
 * the same for every ancestor below the root. The refusals are Koordinator's messages.
 */
public final class QuotaAdmission {
    private QuotaAdmission() {
    }

    /**
     * @param usage        each quota's usage now (own pods and children), as placements have it
     * @param runtimeQuota Koordinator's {@code enableRuntimeQuota}: false checks against max
     * @param checkParents Koordinator's {@code enableCheckParentQuota}
     * @return null when admitted, else why not
     */
    public static String check(QuotaRuntime runtime, Function<String, QuotaUsage> usage, String quota, ResourceAmounts podRequest,
            boolean nonPreemptible, boolean runtimeQuota, boolean checkParents) {
        QuotaRuntime.Entry e = runtime.get(quota);
        if (e == null) {
            return null;
        }
        ResourceAmounts limit = runtimeQuota ? e.state().runtime() : e.spec().max();
        String refused = within(quota, limit, e.spec().min(), usage.apply(quota), podRequest, nonPreemptible);
        if (refused != null) {
            return refused;
        }
        if (checkParents) {
            List<String> topo = new ArrayList<>(List.of(quota));
            for (QuotaRuntime.Entry at = e; ; ) {
                QuotaUsage u = usage.apply(at.spec().name());
                List<String> over = exceeded(u.used().plus(podRequest), at.state().runtime());
                if (!over.isEmpty()) {
                    return "Insufficient quotas, quotaNameTopo: " + goList(topo) + ", runtime: " + print(at.state().runtime()) + ", used: "
                            + print(u.used()) + ", pod's request: " + print(podRequest) + ", exceedDimensions: " + goList(over);
                }
                String parent = at.spec().parent();
                if (parent.equals(QuotaTree.ROOT) || runtime.get(parent) == null) {
                    return null;
                }
                topo.add(0, parent);
                at = runtime.get(parent);
            }
        }
        return null;
    }

    /**
     * The quota's own check, Koordinator's messages: {@code used + request ≤ limit}, and for a non-preemptible pod
     * {@code nonPreemptibleUsed + request ≤ min}.
     *
     * @return null when admitted, else why not
     */
    public static String within(String quota, ResourceAmounts limit, ResourceAmounts min, QuotaUsage now, ResourceAmounts podRequest,
            boolean nonPreemptible) {
        List<String> exceed = exceeded(now.used().plus(podRequest).masked(podRequest.names()), limit);
        if (!exceed.isEmpty()) {
            return "Insufficient quotas, quotaName: " + quota + ", runtime: " + print(limit) + ", used: " + print(now.used())
                    + ", pod's request: " + print(podRequest) + ", exceedDimensions: " + goList(exceed);
        }
        if (nonPreemptible) {
            exceed = exceeded(now.nonPreemptibleUsed().plus(podRequest).masked(podRequest.names()), min);
            if (!exceed.isEmpty()) {
                return "Insufficient non-preemptible quotas, quotaName: " + quota + ", min: " + print(min) + ", nonPreemptibleUsed: "
                        + print(now.nonPreemptibleUsed()) + ", pod's request: " + print(podRequest) + ", exceedDimensions: "
                        + goList(exceed);
            }
        }
        return null;
    }

    /**
     * Kubernetes' {@code quota.LessThanOrEqual(a, limit)}: the names of {@code limit} on which {@code a} holds more, in
     * name order (a name {@code a} lacks is no excess).
     */
    static List<String> exceeded(ResourceAmounts a, ResourceAmounts limit) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Long> l : limit.asMap().entrySet()) {
            if (a.has(l.getKey()) && a.get(l.getKey()) > l.getValue()) {
                out.add(l.getKey());
            }
        }
        return out;
    }

    /** A list as Go's {@code %v} prints a slice: {@code [cpu memory]}. */
    private static String goList(List<String> items) {
        return "[" + String.join(" ", items) + "]";
    }

    /** Koordinator's printResourceList: {@code name:quantity} pairs, sorted, comma-separated. */
    public static String print(ResourceAmounts amounts) {
        List<String> parts = new ArrayList<>();
        QuotaUnits.write(amounts).forEach((k, v) -> parts.add(k + ":" + v));
        parts.sort(null);
        return String.join(",", parts);
    }
}
