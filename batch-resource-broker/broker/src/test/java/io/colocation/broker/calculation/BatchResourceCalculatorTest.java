package io.colocation.broker.calculation;

import static io.colocation.broker.calculation.Fixtures.G;
import static io.colocation.broker.calculation.Fixtures.NOW;
import static io.colocation.broker.calculation.Fixtures.metric;
import static io.colocation.broker.calculation.Fixtures.node;
import static io.colocation.broker.calculation.Fixtures.pod;
import static io.colocation.broker.calculation.Fixtures.r;
import static io.colocation.broker.calculation.Fixtures.strategy;
import static io.colocation.broker.calculation.Fixtures.usage;
import static io.colocation.broker.calculation.Fixtures.workedMetric;
import static io.colocation.broker.calculation.Fixtures.workedNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.PriorityClass;
import io.colocation.model.Resources;
import io.colocation.api.QoSClass;
import io.colocation.model.config.CalculatePolicy;
import io.colocation.model.config.ColocationStrategy;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchResourceCalculatorTest {

    private static ColocationStrategy policies(CalculatePolicy cpu, CalculatePolicy memory) {
        return strategy(65, 65).overlay(new ColocationStrategy(null, null, null, null, null, null, cpu, null, memory,
                null, null, null, null, null, null, null, null, null, null, null));
    }

    private static ColocationStrategy batchCaps(Long cpuPercent, Long memoryPercent) {
        return strategy(65, 65).overlay(new ColocationStrategy(null, null, null, null, null, null, null, null, null,
                null, null, null, cpuPercent, memoryPercent, null, null, null, null, null, null));
    }

    @Test
    void workedExampleByUsage() {
        ResourceResult result = BatchResourceCalculator.calculate(strategy(65, 65), workedNode(), workedMetric(), NOW);
        // 100 - 35 - 7 - (11 + 22) cores; 120G - 42G - 12G - 33G
        assertEquals(new Resources(25_000, 33 * G), result.value());
        assertEquals(List.of(
                "batchAllocatable[CPU(Milli-Core)]:25000 = nodeCapacity:100000 - nodeSafetyMargin:35000 - systemUsageOrNodeReserved:7000 - podHPUsed:33000",
                "batchAllocatable[Mem(GB)]:33 = nodeCapacity:120 - nodeSafetyMargin:42 - systemUsage:12 - podHPUsed:33"),
                result.explain());
    }

    @Test
    void memoryByRequestUsesReservationsAndRequestsOnly() {
        ResourceResult result = BatchResourceCalculator.calculate(policies(CalculatePolicy.USAGE, CalculatePolicy.REQUEST),
                workedNode(), workedMetric(), NOW);
        // 120G - 42G - nodeReserved 0 - HPRequest (20G + 40G)
        assertEquals(18 * G, result.value().memoryBytes());
        assertEquals(25_000, result.value().cpuMilli());
        assertEquals("batchAllocatable[Mem(GB)]:18 = nodeCapacity:120 - nodeSafetyMargin:42 - nodeReserved:0 - podHPRequest:60",
                result.explain().get(1));
    }

    @Test
    void cpuRequestPolicyIsNotSupportedAndFallsBackToUsage() {
        ResourceResult result = BatchResourceCalculator.calculate(policies(CalculatePolicy.REQUEST, CalculatePolicy.USAGE),
                workedNode(), workedMetric(), NOW);
        assertEquals(25_000, result.value().cpuMilli());
    }

    @Test
    void maxUsageRequestTakesTheLargerOfUsageAndRequestPerPod() {
        ResourceResult result = BatchResourceCalculator.calculate(
                policies(CalculatePolicy.MAX_USAGE_REQUEST, CalculatePolicy.MAX_USAGE_REQUEST), workedNode(), workedMetric(), NOW);
        // HPMaxUsedReq = max(20,11) + max(20,22) = 42 cores; max(20G,11G) + max(40G,22G) = 60G
        assertEquals(new Resources(100_000 - 35_000 - 7_000 - 42_000, (120 - 42 - 12 - 60) * G), result.value());
        assertEquals("batchAllocatable[CPU(Milli-Core)]:16000 = nodeCapacity:100000 - nodeSafetyMargin:35000"
                + " - systemUsageOrNodeReserved:7000 - podHPMaxUsedRequest:42000", result.explain().get(0));
        assertEquals("batchAllocatable[Mem(GB)]:6 = nodeCapacity:120 - nodeSafetyMargin:42 - systemUsage:12 - podHPMaxUsedRequest:60",
                result.explain().get(1));
    }

    @Test
    void podWithoutMetricCountsItsRequestAsUsageButNothingForMaxUsageRequest() {
        NodeState n = node(r(100, 120), List.of(pod("fresh", PriorityClass.PROD, QoSClass.LS, r(10, 10))));
        NodeMetricState m = metric(r(0, 0), List.of());
        assertEquals(new Resources(100_000 - 35_000 - 10_000, (120 - 42 - 10) * G),
                BatchResourceCalculator.calculate(strategy(65, 65), n, m, NOW).value());
        // Koordinator's node-level quirk: the pod adds 0 to HPMaxUsedReq.
        assertEquals(new Resources(100_000 - 35_000, (120 - 42) * G), BatchResourceCalculator.calculate(
                policies(CalculatePolicy.MAX_USAGE_REQUEST, CalculatePolicy.MAX_USAGE_REQUEST), n, m, NOW).value());
    }

    @Test
    void lsePodNeverGivesBackCpuButDoesGiveBackMemory() {
        NodeState n = node(r(100, 120), List.of(pod("lse", PriorityClass.PROD, QoSClass.LSE, r(16, 32))));
        NodeMetricState m = metric(r(0, 0), List.of(usage("lse", r(4, 8))));
        // HPUsed = {cpu: request 16, memory: usage 8G}
        assertEquals(new Resources(100_000 - 35_000 - 16_000, (120 - 42 - 8) * G),
                BatchResourceCalculator.calculate(strategy(65, 65), n, m, NOW).value());
    }

    @Test
    void batchAndFreePodsAreIgnoredButMidAndNonePodsAreHighPriority() {
        NodeState n = node(r(100, 120), List.of(
                pod("batch", PriorityClass.BATCH, QoSClass.BE, r(10, 10)),
                pod("free", PriorityClass.FREE, QoSClass.BE, r(10, 10)),
                pod("mid", PriorityClass.MID, QoSClass.LS, r(10, 10)),
                pod("none", PriorityClass.NONE, QoSClass.NONE, r(10, 10))));
        NodeMetricState m = metric(r(0, 0), List.of(usage("batch", r(5, 5)), usage("free", r(5, 5)),
                usage("mid", r(3, 3)), usage("none", r(2, 2))));
        assertEquals(new Resources(100_000 - 35_000 - 5_000, (120 - 42 - 5) * G),
                BatchResourceCalculator.calculate(strategy(65, 65), n, m, NOW).value());
    }

    @Test
    void danglingMetricsCountAsHighPriorityUnlessTheyCarryBatchOrFree() {
        NodeState n = node(r(100, 120), List.of());
        NodeMetricState m = metric(r(0, 0), List.of(
                usage("deleted-prod", r(4, 4)),
                new NodeMetricState.PodUsage("default", "deleted-batch", r(8, 8), PriorityClass.BATCH),
                new NodeMetricState.PodUsage("default", "deleted-free", r(8, 8), PriorityClass.FREE)));
        assertEquals(new Resources(100_000 - 35_000 - 4_000, (120 - 42 - 4) * G),
                BatchResourceCalculator.calculate(strategy(65, 65), n, m, NOW).value());
        // dangling usage also enters HPMaxUsedReq
        assertEquals(new Resources(100_000 - 35_000 - 4_000, (120 - 42 - 4) * G), BatchResourceCalculator.calculate(
                policies(CalculatePolicy.MAX_USAGE_REQUEST, CalculatePolicy.MAX_USAGE_REQUEST), n, m, NOW).value());
    }

    @Test
    void podsNotRunningOrPendingAreIgnoredAndTheirMetricsBecomeDangling() {
        PodState done = new PodState("default", "done", false, PriorityClass.PROD, QoSClass.LS, r(30, 30));
        NodeState n = node(r(100, 120), List.of(done));
        NodeMetricState m = metric(r(0, 0), List.of(usage("done", r(1, 1))));
        // the request (30) is not counted; the metric (1) is, as a dangling HP metric
        assertEquals(new Resources(100_000 - 35_000 - 1_000, (120 - 42 - 1) * G),
                BatchResourceCalculator.calculate(strategy(65, 65), n, m, NOW).value());
    }

    @Test
    void prodAndMidHostApplicationsAreSystemUsageOthersAreNot() {
        NodeState n = node(r(100, 120), List.of());
        NodeMetricState m = new NodeMetricState(Fixtures.FRESH, r(50, 55), r(2, 2), List.of(), List.of(
                new NodeMetricState.HostAppUsage("nginx-prod", r(3, 3), PriorityClass.PROD),
                new NodeMetricState.HostAppUsage("nginx-mid", r(1, 1), PriorityClass.MID),
                new NodeMetricState.HostAppUsage("yarn", r(20, 20), PriorityClass.BATCH),
                new NodeMetricState.HostAppUsage("free", r(20, 20), PriorityClass.FREE),
                new NodeMetricState.HostAppUsage("unclassified", r(20, 20), PriorityClass.NONE)), null);
        // systemUsed = 2 + prod 3 + mid 1
        assertEquals(new Resources(100_000 - 35_000 - 6_000, (120 - 42 - 6) * G),
                BatchResourceCalculator.calculate(strategy(65, 65), n, m, NOW).value());
    }

    @Test
    void reservationsEnterAsTheLargerOfKubeletAndAnnotationAndOfSystemUsage() {
        // kubelet keeps back 8 cores / 4G; the annotation reserves 2 CPUs (reservedCPUs) / 10G
        NodeState n = new NodeState("n1", r(100, 120), r(92, 116), r(2, 10), null, null, List.of());
        NodeMetricState m = metric(r(5, 6), List.of());
        // usage: max(systemUsed 5/6G, reserved 8/10G)
        assertEquals(new Resources(100_000 - 35_000 - 8_000, (120 - 42 - 10) * G),
                BatchResourceCalculator.calculate(strategy(65, 65), n, m, NOW).value());
        // request (memory): nodeReserved only: 120G - 42G - 10G
        assertEquals((120 - 42 - 10) * G, BatchResourceCalculator.calculate(
                policies(CalculatePolicy.USAGE, CalculatePolicy.REQUEST), n, m, NOW).value().memoryBytes());
    }

    @Test
    void safetyMarginIsTruncatedFloat64LikeKoordinator() {
        // (100 - 71) / 100.0 = 0.29 in float64; 3000 * 0.29 = 869.9999999999999 -> 869, not 870
        NodeState n = node(new Resources(3_000, 10 * G), List.of());
        ResourceResult result = BatchResourceCalculator.calculate(strategy(71, 65), n, metric(Resources.ZERO, List.of()), NOW);
        assertEquals(3_000 - 869, result.value().cpuMilli());
    }

    @Test
    void reclaimThresholdAbove100LendsMoreThanIsFree() {
        NodeState n = node(r(100, 120), List.of());
        ResourceResult result = BatchResourceCalculator.calculate(strategy(150, 120), n, metric(r(10, 10), List.of()), NOW);
        // margin = 100 * (100-150)/100 = -50 cores; 120G * -0.2 = -24G
        assertEquals(new Resources(100_000 + 50_000 - 10_000, (120 + 24 - 10) * G), result.value());
    }

    @Test
    void batchThresholdsCapTheResultAfterTheClamp() {
        NodeState n = node(r(100, 120), List.of());
        ResourceResult capped = BatchResourceCalculator.calculate(batchCaps(30L, 40L), n, metric(r(10, 10), List.of()), NOW);
        assertEquals(new Resources(30_000, 48 * G), capped.value());
        assertTrue(capped.explain().get(0).endsWith("capped: batchAllocatable[CPU(Milli-Core)]:30000 = nodeCapacity:100000 * batchCPUThresholdPercent:30%"));
        // a cap above the result changes nothing
        assertEquals(new Resources(55_000, 68 * G), BatchResourceCalculator.calculate(batchCaps(90L, 90L), n,
                metric(r(10, 10), List.of()), NOW).value());
        // a clamped zero stays zero under a cap
        NodeState busy = node(r(10, 10), List.of(pod("p", PriorityClass.PROD, QoSClass.LS, r(20, 20))));
        assertEquals(Resources.ZERO, BatchResourceCalculator.calculate(batchCaps(50L, 50L), busy,
                metric(Resources.ZERO, List.of()), NOW).value());
    }

    @Test
    void staleMissingOrUntimedMetricsDegrade() {
        ResourceResult missing = BatchResourceCalculator.calculate(strategy(65, 65), workedNode(), null, NOW);
        assertNull(missing.value());
        assertTrue(missing.degraded());
        assertEquals(List.of(BatchResourceCalculator.DEGRADED), missing.explain());

        NodeMetricState untimed = new NodeMetricState(null, r(1, 1), r(1, 1), List.of(), List.of(), null);
        assertTrue(BatchResourceCalculator.calculate(strategy(65, 65), workedNode(), untimed, NOW).isReset());

        // default degradeTimeMinutes 15: updated at 08:00, stale strictly after 08:15
        assertFalse(BatchResourceCalculator.calculate(strategy(65, 65), workedNode(), workedMetric(),
                Instant.parse("2026-11-21T08:15:00Z")).isReset());
        assertTrue(BatchResourceCalculator.calculate(strategy(65, 65), workedNode(), workedMetric(),
                Instant.parse("2026-11-21T08:15:00.001Z")).isReset());
    }
}
