package io.colocation.broker.decision;

import io.colocation.broker.calculation.NodeCalculation;
import io.colocation.broker.calculation.NodeCalculationMemo;
import io.colocation.model.Resources;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Instant;

/**
 * Everything {@link NodeDecision} needs of one node in one pass, read once from both sides: the calculation
 * on its Kubernetes objects, its NodeManager and what that NodeManager's YARN cluster says, the grants in force on it
 * as far as this replica knows, the input fault recorded in earlier passes, and what every node of the pass shares.
 *
 * @param calculation   the node's calculation and the batch use of its pods; null when no colocation config is usable
 * @param nodeManager   the NodeManager on the node, or why none
 * @param yarn          what its YARN cluster says; null when the node has no NodeManager or its cluster is not configured
 * @param release       what the node's koordlet asked of YARN (its YarnRelease, checked)
 * @param priorFault    the node's input fault as of the last pass, null when none
 * @param excessSince   since when the node's use has been above its origin, as of the last pass; null when it is not
 */
public record NodeFacts(String name, Node node, NodeCalculation.Metric metric, NodeCalculationMemo.Facts calculation,
        NodeManagerIdentity.Resolution nodeManager, YarnFacts yarn, KoordletRelease release, InputFault priorFault, Instant excessSince,
        InForce inForce, Pass pass) {

    /**
     * The grants on the node as this replica knows them (its memory of what it published as leader, else the sides').
     *
     * @param batch          Batch the node carries: what this leader wrote, else its status; null when absent or unreadable
     * @param mid            Mid likewise
     * @param yarnGranted    the YARN grant this leader starts from (what it published, else the persisted one); null: never granted
     * @param batchSettlingFrom the Kubernetes grant before a shrink written moments ago (bindings decided on it may
     *                       still land), null when none
     */
    public record InForce(Resources batch, Resources mid, Resources yarnGranted, Resources batchSettlingFrom) {
    }

    /**
     * What every node of one pass shares.
     *
     * @param configError   why the latest slo-controller-config was refused (the previous one is used), null when it was not
     * @param kubernetesDemand Kubernetes' pending demand (pods whose request can be read)
     * @param apiServerUp   whether every informer is watching
     */
    public record Pass(String configError, Resources kubernetesDemand, boolean apiServerUp, Instant now) {
    }
}
