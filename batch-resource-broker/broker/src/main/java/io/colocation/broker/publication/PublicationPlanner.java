package io.colocation.broker.publication;

import io.colocation.api.ResourceNames;
import io.colocation.broker.arbitration.Decision;
import io.colocation.broker.decision.NodeWork;
import io.colocation.broker.decision.YarnFacts;
import io.colocation.broker.kube.BatchPublication;
import io.colocation.broker.kube.NodeStatusPublisher;
import io.colocation.broker.kube.PublicationThreshold;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.broker.yarn.YarnUnits;
import io.colocation.model.Resources;
import java.time.Instant;
import java.util.Map;

/**
 * A node's publication plan from its decision and its memory: a pure function, the same for the broker and the fast
 * simulator engine. Kubernetes' share is written when Koordinator's thresholds call for it (docs/koordinator-compatibility.md
 * §2.8, {@link PublicationThreshold}); YARN's grant when it or its keep changed; and before YARN's grant is written the
 * node's origin annotation must cover what Kubernetes may hold (its grant in force, or its use when more) plus YARN's
 * grant, so a reader of the annotations never sees the two sides granted beyond it.
 */
public final class PublicationPlanner {
    private PublicationPlanner() {
    }

    /** What to write for the node; nothing for a standby or a frozen node. */
    public static PublicationPlan plan(NodeWork w, NodeMemory memory, boolean leading, Instant now) {
        if (!leading || w.frozen() != null) {
            return PublicationPlan.NOTHING;
        }
        PublicationPlan.KubernetesShare share = share(w, memory, now);
        YarnFacts yarn = w.yarn();
        if (yarn == null || !yarn.reachable()) {
            return new PublicationPlan(share, null, null);
        }
        Decision d = w.decision();
        Resources needed = memory.kubernetesGrantInForce(w.currentBatch(), true).max(w.basis().kubernetesUsed()).plus(d.yarnPublish());
        Resources shown = memory.originShown(NodeStatusPublisher.annotatedOrigin(w.object()));
        boolean covered = shown != null && needed.fitsIn(shown);
        boolean helps = shown == null || !w.basis().origin().fitsIn(shown); // writing the origin can cover only an origin not shown yet
        boolean needsOrigin = !covered && helps;
        PublicationPlan.OriginCover cover = needsOrigin
                ? new PublicationPlan.OriginCover(new BatchPublication(null, null, w.basis().origin(), w.yarnUsed())) : null;
        return new PublicationPlan(share, cover, yarnGrant(yarn, memory, d, needsOrigin));
    }

    /** Batch as the node's status is to carry it: the decision's share, null when the node carries no Batch. */
    public static Resources batch(NodeWork w) {
        return w.basis().reclaim().allocatable().containsKey(ResourceNames.BATCH_CPU) ? w.decision().kubernetesPublish() : null;
    }

    /** Mid as the node's status is to carry it: the calculation's, null when the node carries no Mid. */
    public static Resources mid(NodeWork w) {
        Map<String, Long> allocatable = w.basis().reclaim().allocatable();
        return allocatable.containsKey(ResourceNames.MID_CPU)
                ? new Resources(allocatable.get(ResourceNames.MID_CPU), allocatable.get(ResourceNames.MID_MEMORY)) : null;
    }

    private static PublicationPlan.KubernetesShare share(NodeWork w, NodeMemory memory, Instant now) {
        Resources batch = batch(w);
        Resources mid = mid(w);
        NodeMemory.Written mine = memory.kubernetes();
        String reason = PublicationThreshold.reason(w.currentBatch(), batch, w.currentMid(), mid, mine == null ? null : mine.at(),
                orDefault(w.basis().strategy().resourceDiffThreshold(), 0.1), orDefault(w.basis().strategy().updateTimeThresholdSeconds(), 300L),
                now);
        if (reason == null) {
            return null;
        }
        Resources before = w.currentBatch();
        Resources shrinksFrom = null;
        if (before != null && (batch == null || !before.fitsIn(batch))) {
            NodeMemory.Shrink earlier = memory.settling();
            shrinksFrom = earlier == null ? before : earlier.from().max(before);
        }
        return new PublicationPlan.KubernetesShare(new BatchPublication(batch, mid, w.basis().origin(), w.yarnUsed()), reason,
                shrinksFrom);
    }

    private static PublicationPlan.YarnGrantStep yarnGrant(YarnFacts yarn, NodeMemory memory, Decision d, boolean needsOrigin) {
        YarnSide.Usage grant = YarnUnits.toYarn(d.yarnPublish());
        YarnSide.Usage keep = YarnUnits.toYarn(d.yarnKeep());
        Resources wanted = YarnUnits.of(grant);
        Resources before = memory.yarnGrantFrom(yarn, true);
        if (wanted.equals(before) && YarnUnits.of(keep).equals(memory.yarnKeptInForce(yarn))) {
            return null;
        }
        String reason = before == null || wanted.cpuMilli() < before.cpuMilli() || wanted.memoryBytes() < before.memoryBytes()
                ? "shrink or first grant" : "grow";
        return new PublicationPlan.YarnGrantStep(yarn.clusterId(), yarn.nodeId(), grant, keep, reason, needsOrigin);
    }

    private static <T> T orDefault(T value, T fallback) {
        return value == null ? fallback : value;
    }
}
