package io.colocation.broker.decision;

import io.colocation.broker.arbitration.ArbitrationSettings;
import io.colocation.broker.arbitration.Decision;
import io.colocation.broker.arbitration.GrantArbiter;
import io.colocation.broker.arbitration.SideState;
import io.colocation.broker.calculation.DegradeRules;
import io.colocation.broker.calculation.NodeCalculation;
import io.colocation.broker.calculation.NodeReclaim;
import io.colocation.model.Resources;
import io.colocation.model.node.YarnRelease;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything decided about one node in a pass, as a pure function of its {@link NodeFacts}: whether it is
 * frozen (no usable config, or inputs unreadable within their grace, see {@link DegradeRules}), its origin
 * (drained nodes count 0), each side's state, the arbitration ({@link GrantArbiter}) and the koordlet's
 * YarnRelease hold, with one explanation line per step. The reconciler reads the facts and publishes the result.
 */
public final class NodeDecision {
    /** Set to {@code "true"} on a Node to drain its Batch: origin counts as 0, grants are held at use, nothing is taken back. */
    public static final String ANNOTATION_DRAIN_BATCH = "colocation.io/drain-batch";

    private NodeDecision() {
    }

    public static NodeWork decide(NodeFacts f, ArbitrationSettings arbitration) {
        NodeFacts.Pass pass = f.pass();
        NodeFacts.InForce inForce = f.inForce();
        if (f.calculation() == null) {
            // Reported once by the config's own health check, not per node.
            return NodeWork.frozen(f.name(), f.node(), pass.configError(), f.priorFault(), null, inForce.batch(), inForce.mid());
        }
        NodeCalculation.Outcome outcome = f.calculation().outcome();
        List<String> explain = new ArrayList<>(outcome.explain());
        if (pass.configError() != null) {
            explain.add("the latest slo-controller-config was refused, the previous one is used: " + pass.configError());
        }
        NodeReclaim reclaim = outcome.reclaim();
        String degradedReason = null;
        InputFault fault = null;
        NodeWork.Report report = null;
        if (outcome.invalidInput() != null) {
            InputFault prior = f.priorFault();
            fault = prior != null && prior.cause().equals(outcome.invalidInput()) ? prior : new InputFault(outcome.invalidInput(), pass.now());
            report = new NodeWork.Report("BatchInputInvalid", outcome.invalidInput());
            Instant removeAt = DegradeRules.inputFaultRemovesBatchAt(fault.since(), outcome.strategy());
            if (pass.now().isBefore(removeAt)) {
                return NodeWork.frozen(f.name(), f.node(), outcome.invalidInput() + "; grants frozen at their last values until it is"
                        + " fixed or until " + removeAt + " (degradeTimeMinutes after it appeared), then Batch is removed", fault, report,
                        inForce.batch(), inForce.mid());
            }
            degradedReason = "input invalid since " + fault.since() + ": " + outcome.invalidInput() + "; Batch removed";
            explain.add("cannot calculate: " + outcome.invalidInput() + "; invalid for more than degradeTimeMinutes: Batch and Mid"
                    + " removed until it is fixed");
            reclaim = new NodeReclaim(f.name(), Map.of(), Resources.ZERO, true, List.of());
        } else {
            if (f.priorFault() != null) {
                explain.add("the input that froze this node is fixed");
            }
            if (reclaim.degraded()) {
                degradedReason = f.metric().unusable() != null ? f.metric().unusable() : "NodeMetric stale";
            }
        }
        boolean drained = "true".equalsIgnoreCase(annotation(f.node(), ANNOTATION_DRAIN_BATCH));
        Resources origin = reclaim.originBatch();
        if (drained) {
            explain.add("drained (annotation " + ANNOTATION_DRAIN_BATCH + "=true): origin counts as 0, no side gets new room");
            origin = Resources.ZERO;
        }
        Resources kubernetesUsed = f.calculation().batchUsed();
        explain.addAll(f.calculation().notes());
        Resources kPublished = inForce.batch() == null ? Resources.ZERO : inForce.batch();
        // A shrink just written: pods placed on the grant before it may still be bound, so YARN counts on the old grant.
        Resources kInForce = inForce.batchSettlingFrom() == null ? kPublished : kPublished.max(inForce.batchSettlingFrom());
        if (!kInForce.equals(kPublished)) {
            explain.add("Kubernetes: its grant shrank moments ago; YARN counts on the earlier " + kInForce.cpuMilli()
                    + " milli-cores until bindings decided on it have landed");
        }
        SideState k = new SideState(kubernetesUsed, pass.kubernetesDemand(), kPublished, kInForce, pass.apiServerUp());
        SideState y = yarnSide(f, origin, explain);
        if (!pass.apiServerUp()) {
            explain.add("Kubernetes: informers are not watching: its grant is frozen and YARN does not grow into it");
        }
        Instant excessSince = null;
        boolean takeBack = true;
        if (!drained && f.yarn() != null && !k.used().plus(y.used()).fitsIn(origin)) {
            excessSince = f.excessSince() != null ? f.excessSince() : pass.now();
            takeBack = !pass.now().isBefore(excessSince.plus(arbitration.takeBackAfter()));
            explain.add("use above origin since " + excessSince + (takeBack ? ": taken back now (takeBackAfterSeconds "
                    : ": held until it has lasted takeBackAfterSeconds (") + arbitration.takeBackAfter().toSeconds() + ")");
        }
        Decision decision = drained ? GrantArbiter.drained(k, y)
                : f.yarn() == null ? GrantArbiter.kubernetesOnly(origin, k) : GrantArbiter.decide(arbitration, origin, k, y, takeBack);
        if (f.yarn() != null && !drained) {
            decision = heldByKoordlet(f.release(), decision, origin, y, pass.now(), explain);
        }
        explain.add(decision.explanation());
        NodeWork.Basis basis = new NodeWork.Basis(outcome.strategy(), reclaim, origin, drained, outcome.capacity(), outcome.nodeUsage(),
                kubernetesUsed, f.nodeManager().nodeManager());
        return new NodeWork(f.name(), f.node(), null, degradedReason, basis, f.yarn(), decision, inForce.batch(), inForce.mid(),
                new NodeWork.Handover(fault, report, excessSince), explain);
    }

    /** YARN's side on the node (a zero side without a NodeManager the broker knows), with its explanation lines. */
    private static SideState yarnSide(NodeFacts f, Resources origin, List<String> explain) {
        NodeManagerIdentity.Resolution nm = f.nodeManager();
        if (nm.problem() != null) {
            explain.add("YARN: " + nm.problem());
        }
        YarnFacts yarn = f.yarn();
        if (yarn == null) {
            if (nm.nodeManager() != null) {
                explain.add("YARN: " + nm.nodeManager().source() + " names YARN cluster " + nm.nodeManager().clusterId()
                        + ", which this broker is not configured for (yarn.clusters); no YARN grant");
            }
            return new SideState(Resources.ZERO, Resources.ZERO, Resources.ZERO, Resources.ZERO, true);
        }
        // Never granted: YARN still runs on the NodeManager's own totals, so Kubernetes must not count on
        // any of origin until YARN acknowledges its first grant.
        Resources published = f.inForce().yarnGranted() != null ? f.inForce().yarnGranted() : origin.max(yarn.used());
        if (f.inForce().yarnGranted() == null) {
            explain.add("YARN: no grant yet for " + yarn.nodeId() + "; Kubernetes waits for YARN to acknowledge its first grant");
        }
        explain.add("YARN: NodeManager " + yarn.nodeId() + " of cluster " + yarn.clusterId() + " (from " + nm.nodeManager().source() + ")"
                + (yarn.reachable() ? "" : "; not reachable (no fresh report): its grant is frozen and Kubernetes does not grow into it"));
        Resources inForce = yarn.inForce();
        if (inForce != null && !inForce.fitsIn(published) && (yarn.applied() == null || !inForce.equals(yarn.applied()))) {
            explain.add("YARN: a grant published since its last acknowledgement may still be in force, up to " + inForce.describe()
                    + "; Kubernetes does not count on that room until YARN confirms a later one");
        }
        return new SideState(yarn.used(), yarn.demand(), published, inForce, yarn.reachable());
    }

    /**
     * The koordlet's {@link YarnRelease} of the node, while it lasts, holds YARN's grant at its limit (one the reader
     * ignored, malformed or without the node-agent webhook's stamp, is named in the node's explanation).
     */
    private static Decision heldByKoordlet(KoordletRelease asked, Decision decision, Resources origin, SideState yarn, Instant now,
            List<String> explain) {
        if (asked.ignored() != null) {
            explain.add(asked.ignored());
        }
        YarnRelease release = asked.release();
        if (release == null || !release.activeAt(now)) {
            return decision;
        }
        explain.add("YARN: the koordlet asks YARN down to " + release.limit().describe() + " until " + release.expires() + " ("
                + release.reason() + (release.containers().isEmpty() ? "" : "; its victims " + String.join(", ", release.containers()))
                + ")" + (yarn.reachable() ? "" : "; YARN is not reachable, the release waits"));
        return GrantArbiter.yarnHeldAt(decision, origin, release.limit(), yarn);
    }

    private static String annotation(Node node, String key) {
        return node.getMetadata().getAnnotations() == null ? null : node.getMetadata().getAnnotations().get(key);
    }
}
