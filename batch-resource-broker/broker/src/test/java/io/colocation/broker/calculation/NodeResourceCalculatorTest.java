package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import static io.colocation.broker.calculation.Fixtures.G;
import static io.colocation.broker.calculation.Fixtures.NOW;
import static io.colocation.broker.calculation.Fixtures.r;
import static io.colocation.broker.calculation.Fixtures.workedMetric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.ResourceNames;
import io.colocation.model.config.ColocationStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeResourceCalculatorTest {

    private static NodeState worked(Double ratio, Resources thirdParty) {
        NodeState n = Fixtures.workedNode();
        return new NodeState(n.name(), n.capacity(), n.allocatable(), n.annotationReserved(), ratio, thirdParty, n.pods());
    }

    @Test
    void disabledColocationRemovesEverythingAndRecordsZeroOrigin() {
        NodeReclaim reclaim = NodeResourceCalculator.calculate(ColocationStrategy.defaults(), worked(null, null), workedMetric(), NOW);
        assertEquals(Map.of(), reclaim.allocatable());
        assertEquals(Resources.ZERO, reclaim.originBatch());
        assertTrue(reclaim.explain().get(0).startsWith(NodeResourceCalculator.DISABLED));
    }

    @Test
    void thirdPartyBatchAllocationsAreSubtractedFromWhatKubernetesSees() {
        NodeReclaim reclaim = NodeResourceCalculator.calculate(Fixtures.strategy(65, 65), worked(null, r(10, 10)), workedMetric(), NOW);
        assertEquals(new Resources(25_000, 33 * G), reclaim.originBatch());
        assertEquals(15_000L, reclaim.allocatable().get(ResourceNames.BATCH_CPU));
        assertEquals(23 * G, reclaim.allocatable().get(ResourceNames.BATCH_MEMORY));
        // more YARN use than origin: clamped at zero
        NodeReclaim over = NodeResourceCalculator.calculate(Fixtures.strategy(65, 65), worked(null, r(40, 40)), workedMetric(), NOW);
        assertEquals(0L, over.allocatable().get(ResourceNames.BATCH_CPU));
        assertEquals(0L, over.allocatable().get(ResourceNames.BATCH_MEMORY));
    }

    @Test
    void degradedNodeHasNoBatchOrMidAndZeroOrigin() {
        NodeReclaim reclaim = NodeResourceCalculator.calculate(Fixtures.strategy(65, 65), worked(null, null), null, NOW);
        assertTrue(reclaim.degraded());
        assertEquals(Map.of(), reclaim.allocatable());
        assertEquals(Resources.ZERO, reclaim.originBatch());
    }

    @Test
    void cpuNormalizationAmplifiesBatchCpuAndRoundsTheQuantityUp() {
        NodeReclaim reclaim = NodeResourceCalculator.calculate(Fixtures.strategy(65, 65), worked(1.5, null), workedMetric(), NOW);
        assertEquals(37_500L, reclaim.allocatable().get(ResourceNames.BATCH_CPU));
        assertEquals(37_500, reclaim.originBatch().cpuMilli(), "the origin annotation carries the normalized value");
        assertEquals(33 * G, reclaim.allocatable().get(ResourceNames.BATCH_MEMORY), "memory is not normalized");
        // 12345 * 1.1: milli-value 12345000 * 1.1 = 13579500.000000002 -> 13579500 -> 13579.5 -> rounded up
        assertEquals(13_580, NodeResourceCalculator.normalizeBatchCpu(12_345, 1.1, new ArrayList<>()));
        // ratios of 1 or less are ignored
        assertEquals(12_345, NodeResourceCalculator.normalizeBatchCpu(12_345, 1.0, new ArrayList<>()));
        assertEquals(12_345, NodeResourceCalculator.normalizeBatchCpu(12_345, 0.8, new ArrayList<>()));
    }

    @Test
    void allFourResourcesArePublishedWhenEnabled() {
        NodeReclaim reclaim = NodeResourceCalculator.calculate(Fixtures.strategy(65, 65), worked(null, null), workedMetric(), NOW);
        assertEquals(List.of(ResourceNames.BATCH_CPU, ResourceNames.BATCH_MEMORY, ResourceNames.MID_CPU, ResourceNames.MID_MEMORY),
                List.copyOf(reclaim.allocatable().keySet()));
        assertEquals(4, reclaim.explain().size());
    }
}
