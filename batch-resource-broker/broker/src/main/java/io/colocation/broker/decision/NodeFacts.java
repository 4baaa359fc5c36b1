package io.colocation.broker.decision;

import io.colocation.broker.calculation.NodeCalculation;
import io.colocation.broker.calculation.NodeCalculationMemo;
import io.colocation.broker.nodeagent.ReleaseProof;
import io.colocation.model.Resources;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Instant;

/**
 * Everything {@link NodeDecision} needs of one node in one pass, read once from both sides: the calculation
 * on its Kubernetes objects, the Batch and Mid it carries as far as this replica knows, its NodeManager and
 * what that NodeManager's YARN cluster says, Kubernetes' pending demand and whether each side answers, and
 * the input fault recorded in earlier passes.
 *
 * @param calculation   the node's calculation and the batch use of its pods; null when no colocation config is usable
 * @param configError   why the latest slo-controller-config was refused (the previous one is used), null when it was not
 * @param currentBatch  Batch the node carries: what this leader wrote, else its status; null when absent or unreadable
 * @param currentMid    Mid likewise
 * @param nodeManager   the NodeManager on the node, or why none
 * @param yarn          what its YARN cluster says; null when the node has no NodeManager or its cluster is not configured
 * @param yarnGranted   the YARN grant this leader starts from (what it published, else the persisted one); null: never granted
 * @param apiServerUp   whether every informer is watching
 * @param priorFault    the node's input fault as of the last pass, null when none
 * @param excessSince   since when the node's use has been above its origin, as of the last pass; null when it is not
 * @param kubernetesSettlingFrom the Kubernetes grant before a shrink written moments ago (bindings decided on it may
 *                      still land), null when none
 * @param releaseProof  the stamp the koordlet's yarn-release must carry to be honoured; null: none is asked
 */
public record NodeFacts(String name, Node node, NodeCalculation.Metric metric, NodeCalculationMemo.Facts calculation,
        String configError, Resources currentBatch, Resources currentMid,
        NodeManagerIdentity.Resolution nodeManager, YarnFacts yarn, Resources yarnGranted, Resources kubernetesDemand,
        boolean apiServerUp, InputFault priorFault, Instant excessSince, Instant now, Resources kubernetesSettlingFrom,
        ReleaseProof releaseProof) {
}
