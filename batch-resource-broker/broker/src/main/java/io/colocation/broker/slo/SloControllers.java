package io.colocation.broker.slo;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.KoordinatorKeys;
import io.colocation.broker.kube.ClusterView;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.helpers.concurrent.Daemons;
import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.kube.client.EventRecorder;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.config.NodeStrategyResolver;
import io.colocation.model.config.SloConfigKey;
import io.colocation.model.config.SloStrategies;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeMetricSpecs;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Koordinator's nodemetric and nodeslo controllers (docs/koordinator-compatibility.md §11) in the broker: one NodeMetric
 * and one NodeSLO per node, their specs rendered from {@code slo-controller-config}, created with the node
 * (owned by it), updated when the ConfigMap or the node's labels change, deleted with it. Only the leader
 * writes. A ConfigMap key that does not parse keeps its last good value; its error is logged once, recorded
 * as an Event on the ConfigMap and listed by {@link #configErrors()} for the health check.
 */
public final class SloControllers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SloControllers.class);

    private final ClusterView view;
    private final LeaderEpoch leadership;
    private final EventRecorder events;
    private final SloObjectWriter<NodeMetric> nodeMetrics;
    private final SloObjectWriter<NodeSLO> nodeSlos;
    private final SloConfigCache config;
    private final DistinctWarnings writeFailures = new DistinctWarnings(LOG);
    private final ExecutorService writers;
    private final SpecTrees metricTrees = new SpecTrees();
    private final SpecTrees sloTrees = new SpecTrees();
    /** Per node, the inputs its object last matched with (the controllers' thread's own). */
    private final Map<String, Inputs> metricSettled = new HashMap<>();
    private final Map<String, Inputs> sloSettled = new HashMap<>();

    /** @param writeThreads parallel writes to the API server ({@code sync.publishThreads}) */
    public SloControllers(KubernetesClient client, ClusterView view, LeaderEpoch leadership, String sloNamespace,
            EventRecorder events, int writeThreads) {
        this.writers = Executors.newFixedThreadPool(writeThreads, Daemons.named("slo-writer"));
        this.view = view;
        this.leadership = leadership;
        this.events = events;
        this.nodeMetrics = new SloObjectWriter<>(client, NodeMetric.class, NodeMetric::new);
        this.nodeSlos = new SloObjectWriter<>(client, NodeSLO.class, NodeSLO::new);
        this.config = new SloConfigCache("ConfigMap " + sloNamespace + "/" + KoordinatorKeys.SLO_CONFIGMAP_NAME, this::configError);
    }

    /** One round: both controllers against the informers' view. Does nothing on a standby. */
    public void reconcile() {
        ConfigMap cm = view.sloConfigMap();
        config.update(cm == null ? null : cm.getData());
        if (leadership.fence().isEmpty()) {
            return;
        }
        List<Node> nodes = view.nodes();
        ColocationConfig colocation = view.colocationConfig();
        boolean colocationInError = view.configError() != null;
        Map<String, NodeMetric> metrics = view.nodeMetrics();
        Map<String, JsonNode> metricSpecs = specs(metrics, NodeMetric::getSpec, metricTrees, view.unreadableNodeMetrics());
        ObjectPlan metricPlan = plan(nodes, metricSpecs, metricSettled, node -> new Inputs(colocation, node.getMetadata().getLabels(),
                annotation(node, KoordinatorKeys.ANNOTATION_NODE_COLOCATION_STRATEGY), generation(metrics.get(node.getMetadata().getName()))),
                node -> {
                    if (colocationInError && metricSpecs.containsKey(node.getMetadata().getName())) {
                        return null; // Koordinator keeps the existing spec while colocation-config is in error
                    }
                    return NodeMetricSpecs.forStrategy(NodeStrategyResolver.resolve(colocation, node.getMetadata().getLabels(),
                            node.getMetadata().getAnnotations()).strategy());
                });
        record(nodeMetrics.apply(metricPlan, writers), "NodeMetric");
        if (view.nodeSloServed()) {
            Map<SloConfigKey, SloStrategies> keys = config.strategies();
            Map<String, NodeSLO> existing = view.nodeSlos();
            // One that cannot be read is replaced by the rendered spec (as if it had none), never left broken.
            Map<String, JsonNode> sloSpecs = specs(existing, NodeSLO::getSpec, sloTrees, view.unreadableNodeSlos());
            ObjectPlan sloPlan = plan(nodes, sloSpecs, sloSettled, node -> new Inputs(keys, node.getMetadata().getLabels(),
                    annotation(node, NodeSloSpecs.ANNOTATION_NETWORK_BANDWIDTH), generation(existing.get(node.getMetadata().getName()))),
                    node -> {
                        NodeSLO current = existing.get(node.getMetadata().getName());
                        return NodeSloSpecs.render(keys, node.getMetadata().getLabels(), node.getMetadata().getAnnotations(),
                                current == null ? null : current.getSpec());
                    });
            record(nodeSlos.apply(sloPlan, writers), "NodeSLO");
        }
    }

    /**
     * What a node's object is rendered from: the configuration (the same object while the ConfigMap is unchanged), the
     * node's labels and the annotation that overrides it, and the generation of the object's spec (null: none).
     */
    private record Inputs(Object config, Map<String, String> labels, String annotation, Long objectGeneration) {
    }

    /**
     * {@link ObjectPlan#of} over the nodes whose inputs changed since their object last matched what they render to: the
     * others are left as they are, without rendering and comparing a thousand specs every round.
     */
    private static ObjectPlan plan(List<Node> nodes, Map<String, JsonNode> existing, Map<String, Inputs> settled,
            Function<Node, Inputs> inputs, Function<Node, Object> desired) {
        Map<String, Inputs> compared = new HashMap<>();
        ObjectPlan plan = ObjectPlan.of(nodes, existing, node -> {
            String name = node.getMetadata().getName();
            Inputs now = inputs.apply(node);
            if (now.objectGeneration() != null && now.equals(settled.get(name))) {
                return null;
            }
            Object spec = desired.apply(node);
            if (spec != null && now.objectGeneration() != null) {
                compared.put(name, now);
            }
            return spec;
        });
        plan.creates().forEach(w -> compared.remove(w.node().getMetadata().getName()));
        plan.updates().forEach(w -> compared.remove(w.node().getMetadata().getName()));
        Set<String> names = new HashSet<>();
        nodes.forEach(n -> names.add(n.getMetadata().getName()));
        settled.keySet().retainAll(names);
        settled.putAll(compared);
        return plan;
    }

    private static <T extends io.colocation.model.slo.KoordinatorResource> Map<String, JsonNode> specs(Map<String, T> objects,
            Function<T, Object> spec, SpecTrees trees, Map<String, String> unreadable) {
        Map<String, JsonNode> specs = new HashMap<>();
        objects.forEach((name, o) -> specs.put(name, trees.of(o, spec.apply(o))));
        trees.retain(objects.keySet());
        unreadable.keySet().forEach(name -> specs.put(name, ClusterView.UNREADABLE_SPEC));
        return specs;
    }

    private static Long generation(io.colocation.model.slo.KoordinatorResource object) {
        return object == null ? null : object.getMetadata().getGeneration();
    }

    private static String annotation(Node node, String key) {
        Map<String, String> a = node.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    private void record(SloObjectWriter.Outcome outcome, String kind) {
        if (outcome.failed() > 0) {
            writeFailures.warn(kind, outcome.failed() + " write(s) failed, retried next round: " + outcome.lastError());
        } else {
            writeFailures.resolved(kind);
        }
    }

    private void configError(SloConfigKey key, String message) {
        LOG.warn("{}", message);
        ConfigMap cm = view.sloConfigMap();
        if (cm != null && leadership.fence().isPresent()) {
            events.warning(new EventRecorder.Involved("v1", "ConfigMap", cm.getMetadata().getNamespace(), cm.getMetadata().getName(),
                    cm.getMetadata().getUid()), "SLOCfgUnmarshalFailed", message, null);
        }
    }

    /** The ConfigMap keys refused now, with why. */
    public Map<String, String> configErrors() {
        return config.errors();
    }

    /** Writes that fail now (by kind), with why. */
    public Map<String, String> writeErrors() {
        return writeFailures.current();
    }

    @Override
    public void close() {
        Daemons.stop(5, writers);
    }
}
