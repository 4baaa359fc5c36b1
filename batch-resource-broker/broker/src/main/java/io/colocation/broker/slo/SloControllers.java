package io.colocation.broker.slo;

import io.colocation.model.slo.NodeMetricSpecs;
import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.KoordinatorKeys;
import io.colocation.broker.kube.ClusterView;
import io.colocation.kube.client.EventRecorder;
import io.colocation.api.log.DistinctWarnings;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.config.NodeStrategyResolver;
import io.colocation.model.config.SloConfigKey;
import io.colocation.model.config.SloStrategies;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Koordinator's nodemetric and nodeslo controllers (KOORDINATOR-COMPAT.md §11) in the broker: one NodeMetric
 * and one NodeSLO per node, their specs rendered from {@code slo-controller-config}, created with the node
 * (owned by it), updated when the ConfigMap or the node's labels change, deleted with it. Only the leader
 * writes. A ConfigMap key that does not parse keeps its last good value; its error is logged once, recorded
 * as an Event on the ConfigMap and listed by {@link #configErrors()} for the health check.
 */
public final class SloControllers {
    private static final Logger LOG = LoggerFactory.getLogger(SloControllers.class);

    private final ClusterView view;
    private final LeaderEpoch leadership;
    private final EventRecorder events;
    private final SloObjectWriter<NodeMetric> nodeMetrics;
    private final SloObjectWriter<NodeSLO> nodeSlos;
    private final SloConfigCache config;
    private final DistinctWarnings writeFailures = new DistinctWarnings(LOG);

    public SloControllers(KubernetesClient client, ClusterView view, LeaderEpoch leadership, String sloNamespace,
            EventRecorder events) {
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
        Map<String, JsonNode> metricSpecs = view.nodeMetricSpecs();
        ObjectPlan metricPlan = ObjectPlan.of(nodes, metricSpecs, node -> {
            if (colocationInError && metricSpecs.containsKey(node.getMetadata().getName())) {
                return null; // Koordinator keeps the existing spec while colocation-config is in error
            }
            return NodeMetricSpecs.forStrategy(NodeStrategyResolver.resolve(colocation, node.getMetadata().getLabels(),
                    node.getMetadata().getAnnotations()).strategy());
        });
        record(nodeMetrics.apply(metricPlan), "NodeMetric");
        if (view.nodeSloServed()) {
            Map<SloConfigKey, SloStrategies> keys = config.strategies();
            Map<String, NodeSLO> existing = view.nodeSlos();
            Map<String, JsonNode> sloSpecs = new HashMap<>();
            existing.forEach((name, slo) -> sloSpecs.put(name, SloObjectWriter.specOf(slo.getSpec())));
            // One that cannot be read is replaced by the rendered spec (as if it had none), never left broken.
            view.unreadableNodeSlos().keySet().forEach(name -> sloSpecs.put(name, ClusterView.UNREADABLE_SPEC));
            ObjectPlan sloPlan = ObjectPlan.of(nodes, sloSpecs, node -> {
                NodeSLO current = existing.get(node.getMetadata().getName());
                return NodeSloSpecs.render(keys, node.getMetadata().getLabels(), node.getMetadata().getAnnotations(),
                        current == null ? null : current.getSpec());
            });
            record(nodeSlos.apply(sloPlan), "NodeSLO");
        }
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
}
