package io.colocation.broker.calculation;

import io.colocation.api.InvalidInputException;
import io.colocation.api.PriorityClass;
import io.colocation.model.KubeTime;
import io.colocation.model.ResourceLists;
import io.colocation.model.Resources;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.ResourceMap;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the typed {@code slo.koordinator.sh/v1alpha1} NodeMetric (decoded once, as every part decodes it) into the
 * calculation's {@link NodeMetricState}; a value that cannot be used is an error naming the field.
 */
public final class NodeMetricInputs {
    private NodeMetricInputs() {
    }

    public static NodeMetricState read(NodeMetric nodeMetric) throws InvalidInputException {
        String where = "NodeMetric " + nodeMetric.getMetadata().getName();
        NodeMetric.Status status = nodeMetric.getStatus();
        if (status == null) {
            return new NodeMetricState(null, null, Resources.ZERO, List.of(), List.of(), null);
        }
        Instant updateTime = KubeTime.parseOptional(status.updateTime(), where + ": status.updateTime");
        NodeMetric.NodeMetricInfo metric = status.nodeMetric();
        ResourceMap usage = metric == null ? null : metric.nodeUsage();
        Resources nodeUsage = usage != null && usage.resources() != null && usage.resources().containsKey("cpu")
                && usage.resources().containsKey("memory")
                ? ResourceLists.cpuMemory(usage.resources(), where + ": status.nodeMetric.nodeUsage.resources") : null;
        Resources systemUsage = metric == null ? Resources.ZERO
                : resources(metric.systemUsage(), where + ": status.nodeMetric.systemUsage.resources");

        List<NodeMetricState.PodUsage> pods = new ArrayList<>();
        List<NodeMetric.PodMetricInfo> podsMetric = status.podsMetric() == null ? List.of() : status.podsMetric();
        for (int i = 0; i < podsMetric.size(); i++) {
            NodeMetric.PodMetricInfo p = podsMetric.get(i);
            String at = where + ": status.podsMetric[" + i + "]";
            if (p == null) {
                throw new InvalidInputException(at + ": null");
            }
            pods.add(new NodeMetricState.PodUsage(p.namespace() == null ? "" : p.namespace(), p.name() == null ? "" : p.name(),
                    resources(p.podUsage(), at + ".podUsage.resources"), PriorityClass.fromName(p.priority() == null ? "" : p.priority())));
        }
        List<NodeMetricState.HostAppUsage> hostApps = new ArrayList<>();
        List<NodeMetric.HostApplicationMetricInfo> apps = status.hostApplicationMetric() == null ? List.of() : status.hostApplicationMetric();
        for (int i = 0; i < apps.size(); i++) {
            NodeMetric.HostApplicationMetricInfo h = apps.get(i);
            String at = where + ": status.hostApplicationMetric[" + i + "]";
            if (h == null) {
                throw new InvalidInputException(at + ": null");
            }
            hostApps.add(new NodeMetricState.HostAppUsage(h.name() == null ? "" : h.name(), resources(h.usage(), at + ".usage.resources"),
                    PriorityClass.fromName(h.priority() == null ? "" : h.priority())));
        }
        NodeMetric.ReclaimableMetric reclaimable = status.prodReclaimableMetric();
        Resources prodReclaimable = reclaimable == null || reclaimable.resource() == null || reclaimable.resource().resources() == null
                ? null : ResourceLists.cpuMemory(reclaimable.resource().resources(), where + ": status.prodReclaimableMetric.resource.resources");
        return new NodeMetricState(updateTime, nodeUsage, systemUsage, List.copyOf(pods), List.copyOf(hostApps), prodReclaimable);
    }

    private static Resources resources(ResourceMap map, String where) throws InvalidInputException {
        return map == null || map.resources() == null ? Resources.ZERO : ResourceLists.cpuMemory(map.resources(), where);
    }
}
