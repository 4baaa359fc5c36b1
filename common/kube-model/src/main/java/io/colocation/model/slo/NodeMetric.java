package io.colocation.model.slo;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import java.util.Map;

/**
 * Koordinator's {@code NodeMetric} (docs/koordinator-compatibility.md §2.11): the spec, which the broker's NodeMetric
 * controller writes, tells the koordlet how to collect; the status is what the koordlet reports.
 */
@Group(KoordinatorResource.GROUP)
@Version("v1alpha1")
@Kind("NodeMetric")
@Plural("nodemetrics")
// Plain Jackson: fabric8's polymorphic deserializer knows only its own kinds.
@JsonDeserialize(using = JsonDeserializer.None.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public final class NodeMetric extends KoordinatorResource {
    private Spec spec;
    private Status status;

    public Spec getSpec() {
        return spec;
    }

    public void setSpec(Spec spec) {
        this.spec = spec;
    }

    public Status getStatus() {
        return status;
    }

    public void setStatus(Status status) {
        this.status = status;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Spec(CollectPolicy metricCollectPolicy) {
    }

    /** {@code spec.metricCollectPolicy}; durations as Go durations ({@code "5m0s"}). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CollectPolicy(Long aggregateDurationSeconds, Long reportIntervalSeconds, AggregatePolicy nodeAggregatePolicy,
            String nodeMemoryCollectPolicy) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AggregatePolicy(List<String> durations) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Status(String updateTime, NodeMetricInfo nodeMetric, List<PodMetricInfo> podsMetric,
            List<HostApplicationMetricInfo> hostApplicationMetric, ReclaimableMetric prodReclaimableMetric,
            ReclaimableMetric prodPeakMetric) {
    }

    /** Node usage over the aggregate window, the aggregated percentiles, system usage and per-NUMA usage. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NodeMetricInfo(ResourceMap nodeUsage, List<AggregatedUsage> aggregatedNodeUsages, ResourceMap systemUsage,
            List<AggregatedUsage> aggregatedSystemUsages, List<ZoneMetric> numaUsages) {
    }

    /** For one duration ({@code "5m0s"}): {@code p50|p90|p95|p99} → usage. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AggregatedUsage(Map<String, ResourceMap> usage, String duration) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ZoneMetric(String name, ResourceMap usage) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PodMetricInfo(String name, String namespace, ResourceMap podUsage, String priority, String qos,
            Map<String, Object> extensions) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record HostApplicationMetricInfo(String name, ResourceMap usage, String priority, String qos) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ReclaimableMetric(ResourceMap resource) {
    }
}
