package io.colocation.scheduler.plugins.nodeaffinity;

import io.colocation.model.labels.LabelSelector;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.FilterPlugin;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Status;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.List;
import java.util.Map;

/**
 * kube-scheduler's {@code NodeAffinity} filter: the pod's {@code nodeSelector} and its required node affinity
 * (terms ORed, expressions ANDed; In, NotIn, Exists, DoesNotExist, Gt, Lt; {@code metadata.name} fields).
 */
public final class NodeAffinity implements FilterPlugin {
    public static final String NAME = "NodeAffinity";
    static final String REASON = "node(s) didn't match Pod's node affinity/selector";
    private static final Status MISMATCH = Status.unschedulable(REASON);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        PodSpec spec = pod.pod().getSpec();
        NodeSelector required = spec.getAffinity() == null || spec.getAffinity().getNodeAffinity() == null ? null
                : spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
        if ((spec.getNodeSelector() == null || spec.getNodeSelector().isEmpty()) && required == null) {
            return Status.SUCCESS; // most pods ask nothing: the node's labels are not read
        }
        Map<String, String> labels = node.node().getMetadata().getLabels() == null ? Map.of()
                : node.node().getMetadata().getLabels();
        if (spec.getNodeSelector() != null) {
            for (Map.Entry<String, String> e : spec.getNodeSelector().entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return MISMATCH;
                }
            }
        }
        if (required != null && !matchesAny(required.getNodeSelectorTerms(), labels, node.name())) {
            return MISMATCH;
        }
        return Status.SUCCESS;
    }

    /** No terms (none, or a null list) match no node, as in kube-scheduler. */
    private static boolean matchesAny(List<NodeSelectorTerm> terms, Map<String, String> labels, String nodeName) {
        for (NodeSelectorTerm term : terms == null ? List.<NodeSelectorTerm>of() : terms) {
            boolean empty = (term.getMatchExpressions() == null || term.getMatchExpressions().isEmpty())
                    && (term.getMatchFields() == null || term.getMatchFields().isEmpty());
            if (empty) {
                continue; // an empty term matches nothing
            }
            if (all(term.getMatchExpressions(), labels) && all(term.getMatchFields(), Map.of("metadata.name", nodeName))) {
                return true;
            }
        }
        return false;
    }

    private static boolean all(List<NodeSelectorRequirement> requirements, Map<String, String> values) {
        if (requirements == null) {
            return true;
        }
        for (NodeSelectorRequirement r : requirements) {
            if (!matches(r, values.get(r.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean matches(NodeSelectorRequirement r, String value) {
        return LabelSelector.Requirement.holds(r.getOperator(), value, r.getValues() == null ? List.of() : r.getValues());
    }
}
