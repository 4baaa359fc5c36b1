package io.colocation.broker.kube;

import io.colocation.model.ResourceLists;
import io.colocation.api.InvalidInputException;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.PriorityClass;
import io.colocation.broker.calculation.NodeMetricState;
import io.colocation.model.Resources;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/** Reads a {@code slo.koordinator.sh/v1alpha1} NodeMetric (as JSON) into {@link NodeMetricState}. */
public final class NodeMetricInputs {
    private NodeMetricInputs() {
    }

    public static NodeMetricState read(JsonNode nodeMetric) throws InvalidInputException {
        String where = "NodeMetric " + nodeMetric.path("metadata").path("name").asText();
        JsonNode status = nodeMetric.path("status");
        Instant updateTime = null;
        JsonNode time = status.get("updateTime");
        if (time != null && !time.isNull()) {
            try {
                updateTime = OffsetDateTime.parse(time.asText()).toInstant();
            } catch (DateTimeParseException e) {
                throw new InvalidInputException(where + ": status.updateTime \"" + time.asText()
                        + "\" is not an RFC 3339 time such as 2026-11-21T08:00:00Z");
            }
        }
        JsonNode metric = status.path("nodeMetric");
        JsonNode usage = metric.path("nodeUsage").path("resources");
        Resources nodeUsage = usage.has("cpu") && usage.has("memory")
                ? ResourceLists.cpuMemory(usage, where + ": status.nodeMetric.nodeUsage.resources") : null;
        Resources systemUsage = ResourceLists.cpuMemory(metric.path("systemUsage").get("resources"), where + ": status.nodeMetric.systemUsage.resources");

        List<NodeMetricState.PodUsage> pods = new ArrayList<>();
        JsonNode podsMetric = status.path("podsMetric");
        for (int i = 0; i < podsMetric.size(); i++) {
            JsonNode p = podsMetric.get(i);
            String at = where + ": status.podsMetric[" + i + "]";
            pods.add(new NodeMetricState.PodUsage(p.path("namespace").asText(), p.path("name").asText(),
                    ResourceLists.cpuMemory(p.path("podUsage").get("resources"), at + ".podUsage.resources"),
                    PriorityClass.fromName(p.path("priority").asText(""))));
        }
        List<NodeMetricState.HostAppUsage> hostApps = new ArrayList<>();
        JsonNode hostMetric = status.path("hostApplicationMetric");
        for (int i = 0; i < hostMetric.size(); i++) {
            JsonNode h = hostMetric.get(i);
            hostApps.add(new NodeMetricState.HostAppUsage(h.path("name").asText(),
                    ResourceLists.cpuMemory(h.path("usage").get("resources"), where + ": status.hostApplicationMetric[" + i + "].usage.resources"),
                    PriorityClass.fromName(h.path("priority").asText(""))));
        }
        JsonNode reclaimable = status.path("prodReclaimableMetric").path("resource").get("resources");
        Resources prodReclaimable = reclaimable == null || reclaimable.isNull() ? null
                : ResourceLists.cpuMemory(reclaimable, where + ": status.prodReclaimableMetric.resource.resources");
        return new NodeMetricState(updateTime, nodeUsage, systemUsage, List.copyOf(pods), List.copyOf(hostApps), prodReclaimable);
    }
}
