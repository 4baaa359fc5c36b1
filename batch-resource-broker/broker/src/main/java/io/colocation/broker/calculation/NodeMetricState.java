package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import io.colocation.api.PriorityClass;
import java.time.Instant;
import java.util.List;

/**
 * The fields of a NodeMetric's status the calculation reads (docs/koordinator-compatibility.md §2.11).
 *
 * @param updateTime      {@code status.updateTime}; null degrades the node
 * @param nodeUsage       {@code status.nodeMetric.nodeUsage}; null when it lacks cpu or memory
 * @param systemUsage     {@code status.nodeMetric.systemUsage}
 * @param prodReclaimable {@code status.prodReclaimableMetric.resource}; null when absent
 */
public record NodeMetricState(Instant updateTime, Resources nodeUsage, Resources systemUsage, List<PodUsage> pods,
        List<HostAppUsage> hostApps, Resources prodReclaimable) {

    /** One {@code status.podsMetric[]} entry; {@code priority} is the metric's own priority field. */
    public record PodUsage(String namespace, String name, Resources usage, PriorityClass priority) {
        public PodKey key() {
            return new PodKey(namespace, name);
        }
    }

    /** One {@code status.hostApplicationMetric[]} entry. */
    public record HostAppUsage(String name, Resources usage, PriorityClass priority) {
    }
}
