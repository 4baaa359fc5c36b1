package io.colocation.broker.reconcile;

import io.colocation.api.InvalidInputException;
import io.colocation.api.ResourceNames;
import io.colocation.broker.calculation.NodeCalculation;
import io.colocation.broker.calculation.NodeCalculationMemo;
import io.colocation.broker.calculation.NodeStateReader;
import io.colocation.broker.decision.InputFault;
import io.colocation.broker.decision.KoordletRelease;
import io.colocation.broker.decision.NodeFacts;
import io.colocation.broker.decision.NodeManagerIdentity;
import io.colocation.broker.decision.YarnFacts;
import io.colocation.broker.kube.ClusterInputs;
import io.colocation.broker.kube.ClusterView;
import io.colocation.broker.nodeagent.ReleaseProof;
import io.colocation.broker.publication.NodeMemory;
import io.colocation.broker.publication.PublicationMemory;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.broker.yarn.YarnUnits;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.node.YarnReleaseResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one node's {@link NodeFacts} for a pass: its Kubernetes objects through the (memoised) calculation, the
 * Batch and Mid it carries as this replica knows them, its NodeManager and that NodeManager's YARN figures. One
 * {@link Pass} per reconcile pass reads each NodeManager's figures once; choosing the nodes to decide, deciding
 * and publishing all see that reading.
 */
final class NodeFactsReader {
    private static final Logger LOG = LoggerFactory.getLogger(NodeFactsReader.class);

    private final ClusterInputs view;
    private final Map<String, YarnSide> yarnSides;
    private final boolean matchHostNames;
    private final NodeCalculationMemo calculations;
    private final PublicationMemory memory;
    private final ReleaseProof releaseProof;

    NodeFactsReader(ClusterInputs view, Map<String, YarnSide> yarnSides, boolean matchHostNames, NodeCalculationMemo calculations,
            PublicationMemory memory, ReleaseProof releaseProof) {
        this.view = view;
        this.yarnSides = yarnSides;
        this.matchHostNames = matchHostNames;
        this.calculations = calculations;
        this.memory = memory;
        this.releaseProof = releaseProof;
    }

    /** What every node of one pass shares: the config, Kubernetes' demand, whether the API server answers, the time. */
    Pass pass(Resources kubernetesDemand, boolean leading, Instant now) {
        Map<String, Collection<String>> known = new HashMap<>();
        if (matchHostNames) {
            yarnSides.forEach((id, side) -> known.put(id, side.knownNodes()));
        }
        ColocationConfig config = view.colocationConfig(); // first: it takes in the ConfigMap as it is now
        return new Pass(view.configUsable() ? config : null, view.configError(), kubernetesDemand, NodeManagerIdentity.HostIndex.of(known),
                view.watching(), leading, now);
    }

    /** Batch and Mid a node carries (null: absent or unreadable). */
    record Carried(Resources batch, Resources mid) {
    }

    final class Pass {
        private final ColocationConfig config;
        private final NodeFacts.Pass shared;
        private final NodeManagerIdentity.HostIndex known;
        private final boolean leading;
        private final Map<String, Optional<YarnFacts>> yarn = new ConcurrentHashMap<>();

        private Pass(ColocationConfig config, String configError, Resources kubernetesDemand, NodeManagerIdentity.HostIndex known,
                boolean apiServerUp, boolean leading, Instant now) {
            this.config = config;
            this.shared = new NodeFacts.Pass(configError, kubernetesDemand, apiServerUp, now);
            this.known = known;
            this.leading = leading;
        }

        boolean apiServerUp() {
            return shared.apiServerUp();
        }

        boolean leading() {
            return leading;
        }

        Instant now() {
            return shared.now();
        }

        /** The node's facts; {@code prior} its input fault from earlier passes, {@code excessSince} its use above origin. */
        NodeFacts read(Node node, InputFault prior, Instant excessSince) {
            String name = node.getMetadata().getName();
            if (config == null) {
                Carried carried = carried(node);
                return new NodeFacts(name, node, null, null, new NodeManagerIdentity.Resolution(null, null), null, KoordletRelease.NONE,
                        prior, excessSince,
                        new NodeFacts.InForce(carried.batch(), carried.mid(), null, null), shared);
            }
            List<Pod> pods = view.podsOn(name);
            Optional<ClusterView.ParsedMetric> parsed = view.nodeMetric(name);
            NodeCalculation.Metric metric = metricOf(name, parsed);
            NodeCalculationMemo.Facts calculation = calculations.calculate(config, node, pods, metric,
                    parsed.map(ClusterView.ParsedMetric::resourceVersion).orElse(null), shared.now());
            NodeMemory remembered = memory.of(name);
            NodeMemory.Written written = remembered.kubernetesWritten(leading);
            NodeManagerIdentity.Resolution nm = NodeManagerIdentity.resolve(node, pods, known, matchHostNames);
            YarnFacts yarnFacts = nm.nodeManager() == null ? null : yarn(nm.nodeManager().clusterId(), nm.nodeManager().nodeId());
            NodeFacts.InForce inForce = new NodeFacts.InForce(written != null ? written.batch() : calculation.publishedBatch(),
                    written != null ? written.mid() : calculation.publishedMid(),
                    yarnFacts == null ? null : remembered.yarnGrantFrom(yarnFacts, leading),
                    leading ? remembered.settlingFrom(System.nanoTime(), memory.settle()) : null);
            return new NodeFacts(name, node, metric, calculation, nm, yarnFacts, yarnFacts == null ? KoordletRelease.NONE
                    : release(view.yarnRelease(name), name, releaseProof),
                    prior, excessSince, inForce, shared);
        }

        /** Batch and Mid the node carries as this replica knows them: what it wrote as leader, else the node's status. */
        Carried carried(Node node) {
            String name = node.getMetadata().getName();
            NodeMemory.Written written = memory.of(name).kubernetesWritten(leading);
            if (written != null) {
                return new Carried(written.batch(), written.mid());
            }
            List<String> unreadable = new ArrayList<>();
            Resources batch = NodeStateReader.published(node, ResourceNames.BATCH_CPU, ResourceNames.BATCH_MEMORY, unreadable);
            Resources mid = NodeStateReader.published(node, ResourceNames.MID_CPU, ResourceNames.MID_MEMORY, unreadable);
            unreadable.forEach(note -> LOG.warn("node {}: {}", name, note));
            return new Carried(batch, mid);
        }

        /** What YARN cluster {@code clusterId} says of NodeManager {@code nodeId}, read once per pass; null for a cluster not configured. */
        YarnFacts yarn(String clusterId, String nodeId) {
            return yarn.computeIfAbsent(clusterId + "\u0000" + nodeId, key -> {
                YarnSide side = yarnSides.get(clusterId);
                if (side == null) {
                    return Optional.empty();
                }
                return Optional.of(new YarnFacts(clusterId, nodeId, side.used(nodeId).map(YarnUnits::of).orElse(Resources.ZERO),
                        side.applied(nodeId).map(YarnUnits::of).orElse(null), side.unconfirmed(nodeId).map(YarnUnits::of).orElse(null),
                        side.reachable(nodeId), YarnUnits.of(side.demand()),
                        side.grant(nodeId).orElse(null)));
            }).orElse(null);
        }
    }

    /**
     * The node's YarnRelease, parsed and, where a stamp is asked (nodeAgent.restricted), honoured only with the node-agent
     * webhook's stamp for this node: trust is decided here, where the facts are read, and the decision takes the result.
     */
    static KoordletRelease release(Optional<YarnReleaseResource> written, String node, ReleaseProof releaseProof) {
        if (written.isEmpty()) {
            return KoordletRelease.NONE;
        }
        String where = YarnReleaseResource.KIND + " " + node;
        YarnRelease release;
        try {
            release = YarnRelease.parse(written.get().getSpec(), where);
        } catch (InvalidInputException e) {
            return new KoordletRelease(null, "ignored " + e.getMessage());
        }
        if (releaseProof != null && !releaseProof.verifies(node, release, written.get().proof())) {
            return new KoordletRelease(null, "ignored " + where + ": it carries no " + YarnReleaseResource.PROOF_ANNOTATION
                    + " of the node-agent webhook for this node, so this node's own koordlet did not write it (nodeAgent.restricted)");
        }
        return new KoordletRelease(release, null);
    }

    /** The node's NodeMetric as the view read it. */
    private static NodeCalculation.Metric metricOf(String name, Optional<ClusterView.ParsedMetric> parsed) {
        if (parsed.isEmpty()) {
            return NodeCalculation.Metric.unusable("no NodeMetric " + name);
        }
        if (parsed.get().error() != null) {
            return NodeCalculation.Metric.unusable("NodeMetric " + name + " is unusable (" + parsed.get().error() + ")");
        }
        return NodeCalculation.Metric.of(parsed.get().state());
    }
}
