package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import io.colocation.api.ResourceNames;
import io.colocation.model.config.ColocationStrategy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole per-node pipeline of Koordinator's {@code noderesource} controller for Batch and Mid: the
 * colocation switch, the two calculators, then the Prepare stage (docs/koordinator-compatibility.md §2.1, §2.9):
 * CPU normalization of batch-cpu, the origin Batch, and the subtraction of {@code koord-batch}
 * third-party allocations (YARN) from what Kubernetes sees.
 */
public final class NodeResourceCalculator {
    static final String DISABLED = "node colocation is disabled in Config, reason: DisableInConfig";

    private NodeResourceCalculator() {
    }

    public static NodeReclaim calculate(ColocationStrategy strategy, NodeState node, NodeMetricState metric, Instant now) {
        List<String> explain = new ArrayList<>();
        Map<String, Long> allocatable = new LinkedHashMap<>();
        if (!strategy.isEnabled()) {
            explain.add(DISABLED + " (set \"enable\": true in colocation-config)");
            return new NodeReclaim(node.name(), allocatable, Resources.ZERO, false, explain);
        }
        ResourceResult batch = BatchResourceCalculator.calculate(strategy, node, metric, now);
        ResourceResult mid = MidResourceCalculator.calculate(strategy, node, metric, now);
        explain.addAll(batch.explain());
        explain.addAll(mid.explain());

        Resources origin = Resources.ZERO;
        if (!batch.isReset()) {
            long cpu = normalizeBatchCpu(batch.value().cpuMilli(), node.cpuNormalizationRatio(), explain);
            origin = new Resources(Math.max(cpu, 0), Math.max(batch.value().memoryBytes(), 0));
            Resources forKubernetes = origin;
            if (node.thirdPartyBatch() != null) {
                forKubernetes = origin.minus(node.thirdPartyBatch()).atLeastZero();
                explain.add("kubernetes batch = max(origin:" + origin.cpuMilli() + " milli-cores / "
                        + origin.memoryBytes() + " bytes - thirdPartyAllocations(koord-batch):"
                        + node.thirdPartyBatch().cpuMilli() + " milli-cores / " + node.thirdPartyBatch().memoryBytes()
                        + " bytes, 0) = " + forKubernetes.cpuMilli() + " milli-cores / " + forKubernetes.memoryBytes()
                        + " bytes");
            }
            allocatable.put(ResourceNames.BATCH_CPU, forKubernetes.cpuMilli());
            allocatable.put(ResourceNames.BATCH_MEMORY, forKubernetes.memoryBytes());
        }
        if (!mid.isReset()) {
            allocatable.put(ResourceNames.MID_CPU, mid.value().cpuMilli());
            allocatable.put(ResourceNames.MID_MEMORY, mid.value().memoryBytes());
        }
        return new NodeReclaim(node.name(), allocatable, origin, batch.degraded() || mid.degraded(), explain);
    }

    /**
     * batch-cpu amplified by the node's CPU normalization ratio when it is above 1: Koordinator multiplies
     * the milli-value of the quantity (milli-cores × 1000) in float64, truncates, then rounds the
     * resulting quantity up to a whole value.
     */
    static long normalizeBatchCpu(long batchCpu, Double ratio, List<String> explain) {
        if (ratio == null || !(ratio > 1.0)) {
            return batchCpu;
        }
        long scaledMilli = (long) ((double) (batchCpu * 1000) * ratio);
        long normalized = -Math.floorDiv(-scaledMilli, 1000);
        explain.add("batch-cpu normalized: " + normalized + " = " + batchCpu + " * cpu-normalization-ratio:"
                + Explain.ratio(ratio));
        return normalized;
    }
}
