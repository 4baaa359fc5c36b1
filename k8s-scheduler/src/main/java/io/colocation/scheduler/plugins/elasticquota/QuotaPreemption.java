package io.colocation.scheduler.plugins.elasticquota;

import io.colocation.api.InvalidInputException;
import io.colocation.model.pod.PodImportance;
import io.colocation.quota.QuotaDirectory;
import io.colocation.quota.QuotaOveruse;
import io.colocation.quota.ResourceAmounts;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.PostFilterPlugin.Nomination;
import io.colocation.scheduler.framework.Snapshots;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Koordinator's ElasticQuota PostFilter (docs/koordinator-compatibility.md §15.4, {@code preempt.go}): the pod may
 * preempt only preemptible pods of lower priority <b>in its own quota</b>. On each node, all such pods are taken off;
 * if the pod then fits the node (every filter) and its quota ({@code used + request ≤ runtime}), the victims are put
 * back one by one, the most important first, while both still hold; the rest are the node's victims. The node whose
 * victims' highest priority is lowest wins, then the lowest sum of priorities, the fewest victims, the name
 * (kube-scheduler's order, without its PodDisruptionBudget step). A pod already nominated to a node where a victim of
 * its quota is still terminating waits for it instead of preempting again.
 */
final class QuotaPreemption {
    private QuotaPreemption() {
    }

    /**
     * @param quota     the pod's quota
     * @param quotaOf   each pod's quota
     * @param used      the quota's used now (its subtree's)
     * @param limit     its runtime (or max without runtime quota)
     * @param maxNames  the resources its max names: what a pod is charged on
     */
    static Optional<Nomination> nominate(CycleState state, PodInfo pod, String quota, Function<PodInfo, String> quotaOf, ResourceAmounts used,
            ResourceAmounts limit, Set<String> maxNames) {
        Pod p = pod.pod();
        if (p.getSpec() != null && "Never".equals(p.getSpec().getPreemptionPolicy())) {
            return Optional.empty();
        }
        ResourceAmounts request = ResourceAmounts.of(pod.requests());
        String nominated = p.getStatus() == null ? null : p.getStatus().getNominatedNodeName();
        Candidate best = null;
        for (NodeInfo node : state.snapshot().nodes()) {
            List<PodInfo> potential = new ArrayList<>();
            List<PodInfo> staying = new ArrayList<>();
            for (PodInfo other : node.pods()) {
                boolean sameQuotaLower = priority(other) < priority(pod) && quota.equals(quotaOf.apply(other));
                if (sameQuotaLower && other.pod().getMetadata().getDeletionTimestamp() != null && node.name().equals(nominated)) {
                    return Optional.empty(); // its earlier victims are still going
                }
                if (sameQuotaLower && other.pod().getMetadata().getDeletionTimestamp() == null
                        && !QuotaDirectory.nonPreemptible(other.pod().getMetadata().getLabels())) {
                    potential.add(other);
                } else {
                    staying.add(other);
                }
            }
            if (potential.isEmpty()) {
                continue;
            }
            ResourceAmounts left = used;
            for (PodInfo v : potential) {
                left = left.minus(charge(v, maxNames));
            }
            if (!fits(state, pod, node, staying, left, request, limit)) {
                continue;
            }
            potential.sort(moreImportantFirst(state.snapshot().now()));
            List<PodInfo> victims = new ArrayList<>();
            for (PodInfo v : potential) {
                List<PodInfo> back = new ArrayList<>(staying);
                back.add(v);
                ResourceAmounts withIt = left.plus(charge(v, maxNames));
                if (fits(state, pod, node, back, withIt, request, limit)) {
                    staying = back;
                    left = withIt;
                } else {
                    victims.add(v);
                }
            }
            Candidate c = new Candidate(node.name(), victims);
            if (best == null || Candidate.ORDER.compare(c, best) < 0) {
                best = c;
            }
        }
        return best == null || best.victims().isEmpty() ? Optional.empty() : Optional.of(new Nomination(best.node(), best.victims(),
                "preempted by " + pod.key() + " (priority " + priority(pod) + ") of ElasticQuota " + quota + " on node " + best.node()));
    }

    private record Candidate(String node, List<PodInfo> victims) {
        static final Comparator<Candidate> ORDER = Comparator.<Candidate>comparingInt(c -> c.victims().stream()
                .mapToInt(QuotaPreemption::priority).max().orElse(Integer.MIN_VALUE))
                .thenComparingLong(c -> c.victims().stream().mapToLong(QuotaPreemption::priority).sum())
                .thenComparingInt(c -> c.victims().size()).thenComparing(Candidate::node);
    }

    /** Kubernetes' MoreImportantPod: higher priority, then the earlier start (a pod not started counts as starting now). */
    private static Comparator<PodInfo> moreImportantFirst(Instant now) {
        return Comparator.comparingInt(QuotaPreemption::priority).reversed()
                .thenComparing((PodInfo p) -> PodImportance.started(p.pod(), now)).thenComparing(PodInfo::key);
    }

    private static boolean fits(CycleState state, PodInfo pod, NodeInfo node, List<PodInfo> pods, ResourceAmounts used,
            ResourceAmounts request, ResourceAmounts limit) {
        if (QuotaOveruse.overused(used.plus(request).masked(request.names()), limit)) {
            return false;
        }
        try {
            return state.feasible(pod, Snapshots.node(node.node(), pods, node.nodeMetric(), node.nodeMetricError(), "Node " + node.name() + ": "));
        } catch (InvalidInputException e) {
            return false; // it was read for this snapshot already
        }
    }

    private static ResourceAmounts charge(PodInfo pod, Set<String> maxNames) {
        return ResourceAmounts.of(pod.requests()).masked(maxNames);
    }

    static int priority(PodInfo pod) {
        return PodImportance.priority(pod.pod());
    }
}
