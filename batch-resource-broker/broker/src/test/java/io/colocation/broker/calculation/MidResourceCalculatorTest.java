package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import static io.colocation.broker.calculation.Fixtures.FRESH;
import static io.colocation.broker.calculation.Fixtures.G;
import static io.colocation.broker.calculation.Fixtures.NOW;
import static io.colocation.broker.calculation.Fixtures.node;
import static io.colocation.broker.calculation.Fixtures.pod;
import static io.colocation.broker.calculation.Fixtures.r;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.PriorityClass;
import io.colocation.api.QoSClass;
import io.colocation.model.config.ColocationStrategy;
import java.util.List;
import org.junit.jupiter.api.Test;

class MidResourceCalculatorTest {

    private static ColocationStrategy mid(long cpuThreshold, long memoryThreshold, long unallocatedPercent) {
        return Fixtures.strategy(65, 65).overlay(new ColocationStrategy(null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, cpuThreshold, memoryThreshold, unallocatedPercent, null, null));
    }

    private static ColocationStrategy staticMode(long cpuReserved, long memoryReserved, long cpuThreshold) {
        return Fixtures.strategy(65, 65).overlay(new ColocationStrategy(null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, "static", cpuThreshold, null, null, cpuReserved, memoryReserved));
    }

    private static NodeMetricState metric(Resources nodeUsage, Resources systemUsage, Resources prodReclaimable) {
        return new NodeMetricState(FRESH, nodeUsage, systemUsage, List.of(), List.of(), prodReclaimable);
    }

    @Test
    void prodReclaimableBoundedByWhatIsUnused() {
        NodeState n = node(r(100, 120), List.of());
        // unused = 100 - 80 = 20 cores, 120G - 50G = 70G; reclaimable 30 cores / 40G
        ResourceResult result = MidResourceCalculator.calculate(mid(100, 100, 0), n,
                metric(r(80, 50), r(5, 5), r(30, 40)), NOW);
        assertEquals(new Resources(20_000, 40 * G), result.value());
        assertEquals("midAllocatable[CPU(milli-core)]:20000 = min(max(min(prodReclaimable:30000, nodeUnused:20000), 0)"
                + " + unallocated:95000 * midUnallocatedRatio:0, nodeCapacity:100000 * thresholdRatio:1)", result.explain().get(0));
    }

    @Test
    void missingProdReclaimableIsZeroNotDegraded() {
        ResourceResult result = MidResourceCalculator.calculate(mid(100, 100, 0), node(r(100, 120), List.of()),
                metric(r(10, 10), r(1, 1), null), NOW);
        assertEquals(Resources.ZERO, result.value());
        assertTrue(!result.degraded());
    }

    @Test
    void unallocatedShareIsAddedAndTheThresholdCapsTheSum() {
        NodeState n = node(r(100, 120), List.of(
                pod("prod", PriorityClass.PROD, QoSClass.LS, r(30, 40)),
                pod("mid", PriorityClass.MID, QoSClass.LS, r(50, 50)),
                pod("batch", PriorityClass.BATCH, QoSClass.BE, r(50, 50))));
        NodeMetricState m = metric(r(40, 40), r(10, 20), r(10, 10));
        // nodeReserved = max(systemUsed 10/20G, reserved 0) ; unallocated = 100-10-30 = 60 cores, 120-20-40 = 60G
        // uncapped: min(10, 60) + 60 * 0.5 = 40 cores; min(10G, 80G) + 30G = 40G
        assertEquals(new Resources(40_000, 40 * G), MidResourceCalculator.calculate(mid(100, 100, 50), n, m, NOW).value());
        // caps of 35% / 25%: the sum is capped (the code), not the reclaimable part (the v1.6 blog)
        assertEquals(new Resources(35_000, 30 * G), MidResourceCalculator.calculate(mid(35, 25, 50), n, m, NOW).value());
    }

    @Test
    void prodHostApplicationsCountAsReservedButMidOnesDoNot() {
        NodeState n = node(r(100, 120), List.of());
        NodeMetricState m = new NodeMetricState(FRESH, r(10, 10), r(2, 2), List.of(), List.of(
                new NodeMetricState.HostAppUsage("prod-app", r(8, 8), PriorityClass.PROD),
                new NodeMetricState.HostAppUsage("mid-app", r(30, 30), PriorityClass.MID)), r(0, 0));
        // unallocated = 100 - (2 + 8) = 90 cores; 120 - 10 = 110G; all of it at 100 %
        assertEquals(new Resources(90_000, 110 * G), MidResourceCalculator.calculate(mid(100, 100, 100), n, m, NOW).value());
    }

    @Test
    void withoutValidNodeUsageNothingIsBelievedUnused() {
        NodeState n = node(r(100, 120), List.of());
        assertEquals(Resources.ZERO, MidResourceCalculator.calculate(mid(100, 100, 0), n, metric(null, r(1, 1), r(30, 30)), NOW).value());
    }

    @Test
    void staticModeReservesAShareOfCapacityUnderTheThreshold() {
        NodeState n = node(r(100, 120), List.of());
        NodeMetricState m = metric(r(99, 119), r(1, 1), null);
        assertEquals(new Resources(20_000, 36 * G), MidResourceCalculator.calculate(staticMode(20, 30, 100), n, m, NOW).value());
        assertEquals(new Resources(15_000, 36 * G), MidResourceCalculator.calculate(staticMode(20, 30, 15), n, m, NOW).value());
    }

    @Test
    void staleMetricDegradesMid() {
        ResourceResult result = MidResourceCalculator.calculate(mid(100, 100, 0), node(r(100, 120), List.of()), null, NOW);
        assertTrue(result.isReset());
        assertEquals(List.of(MidResourceCalculator.DEGRADED), result.explain());
    }
}
