package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import io.colocation.api.PriorityClass;
import io.colocation.api.QoSClass;
import io.colocation.model.config.CalculatePolicy;
import io.colocation.model.config.ColocationStrategy;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reclaimable Batch of one node, as Koordinator's {@code BatchResource} plugin computes it on the node
 * level (docs/koordinator-compatibility.md §2.3–2.7):
 * <pre>
 * byUsage           = max(cap - safetyMargin - max(systemUsed, nodeReserved) - HPUsed,       0)
 * byRequest         = max(cap - safetyMargin - nodeReserved                  - HPRequest,    0)
 * byMaxUsageRequest = max(cap - safetyMargin - max(systemUsed, nodeReserved) - HPMaxUsedReq, 0)
 * </pre>
 * CPU takes byMaxUsageRequest under {@code maxUsageRequest} and byUsage otherwise; memory follows its
 * policy. The optional batch thresholds cap the result. Pure: no I/O, no clock.
 */
public final class BatchResourceCalculator {
    static final String DEGRADED = "degrade node resource because of abnormal nodeMetric, reason: degradedByBatchResource";

    private BatchResourceCalculator() {
    }

    public static ResourceResult calculate(ColocationStrategy strategy, NodeState node, NodeMetricState metric, Instant now) {
        if (DegradeRules.isDegraded(metric, strategy, now)) {
            return ResourceResult.reset(DEGRADED, true);
        }
        long hpReqCpu = 0, hpReqMem = 0, hpUsedCpu = 0, hpUsedMem = 0, hpMaxCpu = 0, hpMaxMem = 0;
        Map<PodKey, NodeMetricState.PodUsage> dangling = new HashMap<>(metric.pods().size() * 2);
        for (NodeMetricState.PodUsage usage : metric.pods()) {
            dangling.put(usage.key(), usage);
        }
        for (PodState pod : node.pods()) {
            if (!pod.runningOrPending()) {
                continue;
            }
            NodeMetricState.PodUsage usage = dangling.remove(pod.key());
            if (!pod.priority().isHighPriorityForBatch()) {
                continue;
            }
            Resources request = pod.request();
            hpReqCpu += request.cpuMilli();
            hpReqMem += request.memoryBytes();
            if (usage == null) {
                // No metric yet: the request stands in for usage. Koordinator adds nothing to HPMaxUsedReq here.
                hpUsedCpu += request.cpuMilli();
                hpUsedMem += request.memoryBytes();
                continue;
            }
            Resources used = pod.qos() == QoSClass.LSE ? request.withMemoryOf(usage.usage()) : usage.usage();
            hpUsedCpu += used.cpuMilli();
            hpUsedMem += used.memoryBytes();
            Resources maxUsedReq = request.max(usage.usage());
            hpMaxCpu += maxUsedReq.cpuMilli();
            hpMaxMem += maxUsedReq.memoryBytes();
        }
        // Metrics of pods not in the list (just deleted, not yet seen) count as HP unless they say batch/free.
        for (NodeMetricState.PodUsage usage : dangling.values()) {
            if (usage.priority() == PriorityClass.BATCH || usage.priority() == PriorityClass.FREE) {
                continue;
            }
            hpUsedCpu += usage.usage().cpuMilli();
            hpUsedMem += usage.usage().memoryBytes();
            hpMaxCpu += usage.usage().cpuMilli();
            hpMaxMem += usage.usage().memoryBytes();
        }
        Resources hpRequest = new Resources(hpReqCpu, hpReqMem);
        Resources hpUsed = new Resources(hpUsedCpu, hpUsedMem);
        Resources hpMaxUsedReq = new Resources(hpMaxCpu, hpMaxMem);

        Resources capacity = node.capacity();
        Resources safetyMargin = new Resources(
                Percent.ofRemainder(capacity.cpuMilli(), strategy.cpuReclaimThresholdPercent()),
                Percent.ofRemainder(capacity.memoryBytes(), strategy.memoryReclaimThresholdPercent()));
        Resources systemUsed = metric.systemUsage().plus(hostAppUsageAbove(metric.hostApps(), PriorityClass.BATCH));
        Resources nodeReserved = node.reserved();
        Resources systemUsedOrReserved = systemUsed.max(nodeReserved);

        Resources byUsage = capacity.minus(safetyMargin).minus(systemUsedOrReserved).minus(hpUsed).atLeastZero();
        Resources byRequest = capacity.minus(safetyMargin).minus(nodeReserved).minus(hpRequest).atLeastZero();
        Resources byMaxUsageRequest = capacity.minus(safetyMargin).minus(systemUsedOrReserved).minus(hpMaxUsedReq).atLeastZero();

        long cpu;
        String cpuMsg;
        if (strategy.cpuCalculatePolicy() == CalculatePolicy.MAX_USAGE_REQUEST) {
            cpu = byMaxUsageRequest.cpuMilli();
            cpuMsg = "batchAllocatable[CPU(Milli-Core)]:" + cpu + " = nodeCapacity:" + capacity.cpuMilli()
                    + " - nodeSafetyMargin:" + safetyMargin.cpuMilli() + " - systemUsageOrNodeReserved:"
                    + systemUsedOrReserved.cpuMilli() + " - podHPMaxUsedRequest:" + hpMaxUsedReq.cpuMilli();
        } else {
            cpu = byUsage.cpuMilli();
            cpuMsg = "batchAllocatable[CPU(Milli-Core)]:" + cpu + " = nodeCapacity:" + capacity.cpuMilli()
                    + " - nodeSafetyMargin:" + safetyMargin.cpuMilli() + " - systemUsageOrNodeReserved:"
                    + systemUsedOrReserved.cpuMilli() + " - podHPUsed:" + hpUsed.cpuMilli();
        }
        long memory;
        String memMsg;
        if (strategy.memoryCalculatePolicy() == CalculatePolicy.REQUEST) {
            memory = byRequest.memoryBytes();
            memMsg = "batchAllocatable[Mem(GB)]:" + Explain.gb(memory) + " = nodeCapacity:"
                    + Explain.gb(capacity.memoryBytes()) + " - nodeSafetyMargin:"
                    + Explain.gb(safetyMargin.memoryBytes()) + " - nodeReserved:"
                    + Explain.gb(nodeReserved.memoryBytes()) + " - podHPRequest:" + Explain.gb(hpRequest.memoryBytes());
        } else if (strategy.memoryCalculatePolicy() == CalculatePolicy.MAX_USAGE_REQUEST) {
            memory = byMaxUsageRequest.memoryBytes();
            memMsg = "batchAllocatable[Mem(GB)]:" + Explain.gb(memory) + " = nodeCapacity:"
                    + Explain.gb(capacity.memoryBytes()) + " - nodeSafetyMargin:"
                    + Explain.gb(safetyMargin.memoryBytes()) + " - systemUsage:"
                    + Explain.gb(systemUsedOrReserved.memoryBytes()) + " - podHPMaxUsedRequest:"
                    + Explain.gb(hpMaxUsedReq.memoryBytes());
        } else {
            memory = byUsage.memoryBytes();
            memMsg = "batchAllocatable[Mem(GB)]:" + Explain.gb(memory) + " = nodeCapacity:"
                    + Explain.gb(capacity.memoryBytes()) + " - nodeSafetyMargin:"
                    + Explain.gb(safetyMargin.memoryBytes()) + " - systemUsage:"
                    + Explain.gb(systemUsedOrReserved.memoryBytes()) + " - podHPUsed:"
                    + Explain.gb(hpUsed.memoryBytes());
        }
        if (strategy.batchCPUThresholdPercent() != null) {
            long cap = Percent.of(capacity.cpuMilli(), strategy.batchCPUThresholdPercent());
            if (cap < cpu) {
                cpuMsg += "; capped: batchAllocatable[CPU(Milli-Core)]:" + cap + " = nodeCapacity:"
                        + capacity.cpuMilli() + " * batchCPUThresholdPercent:" + strategy.batchCPUThresholdPercent()
                        + "%";
                cpu = cap;
            }
        }
        if (strategy.batchMemoryThresholdPercent() != null) {
            long cap = Percent.of(capacity.memoryBytes(), strategy.batchMemoryThresholdPercent());
            if (cap < memory) {
                memMsg += "; capped: batchAllocatable[Mem(GB)]:" + Explain.gb(cap) + " = nodeCapacity:"
                        + Explain.gb(capacity.memoryBytes()) + " * batchMemoryThresholdPercent:"
                        + strategy.batchMemoryThresholdPercent() + "%";
                memory = cap;
            }
        }
        return new ResourceResult(new Resources(cpu, memory), false, List.of(cpuMsg, memMsg));
    }

    /**
     * Usage of host applications whose class's default priority value is above {@code level}'s: for Batch,
     * prod and mid host apps; batch/free ones and those without a class are not counted (docs/koordinator-compatibility.md §2.4).
     */
    static Resources hostAppUsageAbove(List<NodeMetricState.HostAppUsage> hostApps, PriorityClass level) {
        Resources sum = Resources.ZERO;
        for (NodeMetricState.HostAppUsage app : hostApps) {
            if (app.priority().defaultValue() > level.defaultValue()) {
                sum = sum.plus(app.usage());
            }
        }
        return sum;
    }
}
