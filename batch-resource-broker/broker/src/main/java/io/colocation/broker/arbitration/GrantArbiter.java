package io.colocation.broker.arbitration;

import io.colocation.model.Resources;
import java.util.function.ToLongFunction;

/**
 * The arbitration promise (docs/architecture.md §4) for one node, as a pure function. Partitioned: with
 * origin is split weighted max-min fair over what each side wants, its use plus its pending demand ({@link #kubernetesTarget};
 * each side keeping at least the minimum share, its grant below its use when it holds more), so
 * {@code k8sGrant + yarnGrant <= origin}; a shrink is
 * published at once, a grow only into room the other side's acknowledged limit leaves (a side may even
 * stay below its target until the other side acknowledges its shrink); an unreachable
 * side keeps its grant and the other side does not grow into it. When origin falls below what is used,
 * no side may place more: each grant shrinks to what the other side's use leaves, below its own use, and YARN keeps
 * what it uses (the RM plugin preempts only above the decision's keep) until that has lasted the settings'
 * {@code takeBackAfter} (CPU only with {@code takeBackCpu}); then YARN keeps nothing and the plugin preempts gracefully
 * down to {@code origin - k8sUsed} (exit status PREEMPTED), the cheapest route first; what YARN cannot give back is
 * left to eviction, and the excess is reported. Shared: Koordinator's formulas, overcommit counted.
 */
public final class GrantArbiter {
    private GrantArbiter() {
    }

    /** The decision when use above origin, if any, is to be taken back now. */
    public static Decision decide(ArbitrationSettings settings, Resources origin, SideState kubernetes, SideState yarn) {
        return decide(settings, origin, kubernetes, yarn, true);
    }

    /**
     * @param takeBack whether use above origin is taken back now (it has lasted {@code takeBackAfter}); otherwise YARN
     *                 keeps what it uses above its grant
     */
    public static Decision decide(ArbitrationSettings settings, Resources origin, SideState kubernetes, SideState yarn, boolean takeBack) {
        return settings.policy() == GrantPolicy.SHARED
                ? shared(origin, kubernetes, yarn)
                : partitioned(settings, origin, kubernetes, yarn, takeBack);
    }

    /**
     * A node without a YARN NodeManager: Kubernetes gets all of origin (under either policy); when origin
     * falls below its use the grant freezes at use and the excess is reported.
     */
    public static Decision kubernetesOnly(Resources origin, SideState kubernetes) {
        Resources used = kubernetes.used();
        Resources grant = kubernetes.reachable() ? origin.max(used) : kubernetes.published();
        Resources excess = used.minus(origin).atLeastZero();
        return new Decision(grant, Resources.ZERO, grant, Resources.ZERO, excess, Resources.ZERO,
                excess.equals(Resources.ZERO) ? "no YARN NodeManager on the node: Kubernetes gets all of origin"
                        : "no YARN NodeManager on the node; origin below use, grant frozen at use, excess to take back");
    }

    /**
     * A drained node (colocation.io/drain-batch): no side gets new room and nothing is taken back, so each
     * reachable side's grant is held at its use (an unreachable side keeps its grant).
     */
    public static Decision drained(SideState kubernetes, SideState yarn) {
        Resources k = kubernetes.reachable() ? kubernetes.used() : kubernetes.published();
        Resources y = yarn.reachable() ? yarn.used() : yarn.published();
        return new Decision(k, y, k, y, Resources.ZERO, Resources.ZERO,
                "drained: each side's grant held at its use, nothing taken back");
    }

    /**
     * The koordlet asked YARN to give capacity back ({@code colocation.io/yarn-release}, the graceful route of a CPU
     * eviction): YARN's target and publication are held at most {@code limit}, so the RM plugin preempts what YARN
     * uses above it (exit status PREEMPTED). Kubernetes' grants are unchanged: the room is for the starving BE tier,
     * not for more batch. An unreachable YARN keeps its grant, as always.
     */
    public static Decision yarnHeldAt(Decision d, Resources origin, Resources limit, SideState yarn) {
        if (!yarn.reachable()) {
            return d;
        }
        Resources yTarget = d.yarnTarget().min(limit);
        Resources yPublish = d.yarnPublish().min(limit);
        Resources overcommit = d.overcommit().min(d.kubernetesPublish().plus(yPublish).minus(origin).atLeastZero());
        return new Decision(d.kubernetesTarget(), yTarget, d.kubernetesPublish(), yPublish, d.excess(), overcommit,
                d.explanation() + "; YARN held at most the koordlet's release limit", d.yarnKeep().min(limit));
    }

    private static Decision shared(Resources origin, SideState k, SideState y) {
        Resources kGrant = origin.minus(y.used()).atLeastZero();
        Resources yGrant = origin.minus(k.used()).atLeastZero();
        Resources overcommit = kGrant.plus(yGrant).minus(origin).atLeastZero();
        Resources excess = k.used().plus(y.used()).minus(origin).atLeastZero();
        return new Decision(kGrant, yGrant, kGrant, yGrant, excess, overcommit,
                "shared: kubernetes = origin - yarnUsed, yarn = origin - kubernetesUsed");
    }

    private static Decision partitioned(ArbitrationSettings s, Resources origin, SideState k, SideState y, boolean takeBack) {
        boolean cpuTakenBack = takeBack && s.takeBackCpu();
        long[] cpu = partition(s, origin, k, y, Resources::cpuMilli, cpuTakenBack);
        long[] mem = partition(s, origin, k, y, Resources::memoryBytes, takeBack);
        Resources kTarget = new Resources(cpu[0], mem[0]);
        Resources yTarget = new Resources(cpu[1], mem[1]);
        Resources kPublish = new Resources(cpu[2], mem[2]);
        Resources yPublish = new Resources(cpu[3], mem[3]);
        Resources excess = new Resources(cpu[4], mem[4]);
        Resources keep = new Resources(cpu[5], mem[5]);
        String why = excess.equals(Resources.ZERO)
                ? "partitioned: origin split weighted max-min fair over use plus pending demand; grow only into acknowledged room"
                : keep.equals(Resources.ZERO) ? "partitioned: origin below use, grants shrink to origin - the other side's use: YARN's"
                        + " below its use (RM preemption), Kubernetes' to what YARN's use leaves, excess to take back"
                        : "partitioned: origin below use, grants shrink to origin - the other side's use so no side places more;"
                                + " YARN keeps what it uses (no preemption) until the excess has lasted takeBackAfter";
        return new Decision(kTarget, yTarget, kPublish, yPublish, excess, Resources.ZERO, why, keep);
    }

    /** One resource: {kTarget, yTarget, kPublish, yPublish, excess, yKeep}. */
    private static long[] partition(ArbitrationSettings s, Resources originR, SideState k, SideState y, ToLongFunction<Resources> r,
            boolean takeBack) {
        long origin = r.applyAsLong(originR);
        long kUsed = r.applyAsLong(k.used());
        long yUsed = r.applyAsLong(y.used());
        long kTarget;
        long yTarget;
        long excess = 0;
        long free = origin - kUsed - yUsed;
        if (free < 0) {
            // No side places more: each grant at most what the other side's use leaves (below its own use, which is
            // harmless: Kubernetes evicts nothing for it, and YARN's plugin preempts only above what the decision keeps).
            // Taken back, YARN gives back first: its preemption is graceful and counted by no AM as a failure; what it
            // cannot give back is left to the koordlet's eviction.
            kTarget = Math.min(kUsed, Math.max(origin - yUsed, 0));
            yTarget = Math.max(origin - kUsed, 0);
            excess = -free;
        } else {
            kTarget = kubernetesTarget(origin, kUsed, yUsed, r.applyAsLong(k.demand()), r.applyAsLong(y.demand()), s);
            yTarget = origin - kTarget;
        }
        // A side that cannot be reached keeps what it has; the other side is held to what is left.
        long kPublished = r.applyAsLong(k.published());
        long yPublished = r.applyAsLong(y.published());
        if (!k.reachable()) {
            kTarget = kPublished;
            yTarget = Math.min(yTarget, Math.max(origin - r.applyAsLong(k.effectiveLimit()), yUsed));
        }
        if (!y.reachable()) {
            yTarget = yPublished;
            kTarget = Math.min(kTarget, Math.max(origin - r.applyAsLong(y.effectiveLimit()), kUsed));
        }
        // What a side may enforce: its grant until it acknowledges a shrink, or its use when more (it holds more than its
        // share, its grant below its use).
        long kLimit = Math.max(r.applyAsLong(k.effectiveLimit()), kUsed);
        long yLimit = Math.max(r.applyAsLong(y.effectiveLimit()), yUsed);
        long kPublish = k.reachable() ? publish(kTarget, origin - yLimit) : kPublished;
        long yPublish = y.reachable() ? publish(yTarget, origin - kLimit) : yPublished;
        // Sticky grants: the split of free moves a little each time a task starts or ends, and each move would be a
        // write (a node status at a thousand nodes). A side keeps its grant while its target is within the hysteresis of
        // it (Koordinator's default resourceDiffThreshold, 10 % of origin), the grant covers its use and fits beside what
        // the other side may enforce, and the other side does not need room (its target above its grant by more than
        // the hysteresis). So grants move when origin does or a side needs room: the same promise, a fraction of writes.
        long hysteresis = origin / 10;
        boolean kNeeds = kTarget - kPublished > hysteresis;
        boolean yNeeds = yTarget - yPublished > hysteresis;
        if (k.reachable() && !yNeeds && Math.abs(kTarget - kPublished) <= hysteresis && kPublished >= kUsed && kPublished + yLimit <= origin) {
            kPublish = kPublished;
        }
        if (y.reachable() && !kNeeds && Math.abs(yTarget - yPublished) <= hysteresis && yPublished >= yUsed
                && yPublished + Math.max(kPublish, kLimit) <= origin) {
            yPublish = yPublished;
        }
        // YARN's grant below what it may hold (above its share, use above origin not taken back, or a shrink it has not
        // acknowledged yet) keeps what it holds from preemption: its scheduler places nothing more there, and it shrinks
        // to its grant as its containers end. What it may hold, not only the use last reported: YARN allocates on the old
        // grant until it applies the new one, and its report of that comes after the shrink was decided.
        long keep = yPublish < yLimit && !(excess > 0 && takeBack) ? Math.max(origin, yLimit) : 0;
        return new long[] {kTarget, yTarget, kPublish, yPublish, excess, keep};
    }

    /**
     * Never beyond the target and never into room the other side may still enforce (its grant until it
     * acknowledges a shrink, or its use when more), even below what the side uses: a grant held at use would let its
     * scheduler refill the room of a task that ends while the other side may still fill its own. A shrink therefore goes
     * out at once, a grow waits for the other side's acknowledgement, and YARN below its use keeps it from preemption.
     */
    private static long publish(long target, long roomLeftByOther) {
        return Math.max(0, Math.min(target, roomLeftByOther));
    }

    /**
     * Kubernetes' part of origin, weighted max-min fair over what each side wants (its use plus its pending demand):
     * each side gets what it wants up to its weight's share of origin, what one side leaves goes to the other as far as
     * it wants it, and what nobody wants is split by the weights. Each side keeps at least {@code minimumShare} of origin
     * (a side without demand can still start). A side may use more than its part (it took room the other did not
     * want then): its grant is then its part, below its use, so it shrinks to it as its tasks end and the other side
     * grows into what they free, without preemption. So two sides with work waiting split origin
     * by their weights however long their queues are (a queue's length says how much waits, not how much either
     * deserves; YARN's pending work is not even visible before its ApplicationMasters run), and the targets move when
     * origin or what a side wants does, not when a waiting task starts and pending becomes used.
     */
    static long kubernetesTarget(long origin, long kUsed, long yUsed, long kDemand, long yDemand, ArbitrationSettings s) {
        double wk = s.kubernetesWeight() / (s.kubernetesWeight() + s.yarnWeight());
        double kWant = kUsed + Math.max(kDemand, 0);
        double yWant = yUsed + Math.max(yDemand, 0);
        double kFair = origin * wk;
        double kPart = Math.min(kWant, kFair);
        double yPart = Math.min(yWant, origin - kFair);
        double rest = origin - kPart - yPart;
        double more = Math.min(kWant - kPart, rest);
        kPart += more;
        rest -= more;
        rest -= Math.min(yWant - yPart, rest);
        kPart += rest * wk;
        double least = s.minimumShare() * origin;
        kPart = Math.min(Math.max(kPart, least), origin - least);
        return (long) Math.floor(kPart);
    }
}
