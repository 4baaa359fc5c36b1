package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Koordinator's own group_quota_manager_test.go cases (pkg/scheduler/plugins/elasticquota/core), transcribed: cpu in
 * milli-cores (its {@code createResourceList} takes cores, {@code createResourceList2} milli-cores), memory in bytes,
 * shared weight = max as its {@code CreateQuota} writes it. A step of a Go test is a state of requests here.
 */
class GroupQuotaManagerCasesTest {
    private static final long GB = 1024L * 1048576;

    private static ResourceAmounts res(long cores, long gigabytes) {
        return ResourceAmounts.of("cpu", cores * 1000, "memory", gigabytes * GB);
    }

    private static ResourceAmounts milli(long cpuMilli, long memoryBytes) {
        return ResourceAmounts.of("cpu", cpuMilli, "memory", memoryBytes);
    }

    /** Koordinator's {@code AddQuotaToManager(name, parent, maxCpu, maxMem, minCpu, minMem, allowLent, isParent)} with a request. */
    private record Q(String name, String parent, ResourceAmounts max, ResourceAmounts min, boolean allowLent, ResourceAmounts request) {
        Quota quota() {
            return new Quota(name, parent, allowLent, min, max, max, request);
        }
    }

    private static Q q(String name, String parent, long maxCpu, long maxGb, long minCpu, long minGb, boolean allowLent, ResourceAmounts request) {
        return new Q(name, parent, res(maxCpu, maxGb), res(minCpu, minGb), allowLent, request);
    }

    private static Map<String, ResourceAmounts> runtimes(ResourceAmounts total, boolean scaleMin, Q... quotas) {
        List<Quota> list = new ArrayList<>();
        for (Q x : quotas) {
            list.add(x.quota());
        }
        QuotaTree t = QuotaTree.compute(list, total, scaleMin);
        Map<String, ResourceAmounts> out = new LinkedHashMap<>();
        for (Q x : quotas) {
            out.put(x.name(), t.states().get(x.name()).runtime());
        }
        return out;
    }

    private static final String ROOT = QuotaTree.ROOT;
    private static final ResourceAmounts NONE = ResourceAmounts.NONE;

    @Test
    void updateQuotaDeltaRequest() {
        ResourceAmounts total = res(96, 160);
        assertEquals(total, runtimes(total, false, q("test1", ROOT, 96, 160, 50, 80, true, res(120, 200)),
                q("test2", ROOT, 96, 160, 40, 80, true, NONE)).get("test1"), "test1 alone asks beyond the cluster: all of it");
        assertEquals(Map.of("test1", res(53, 80), "test2", res(43, 80)), runtimes(total, false,
                q("test1", ROOT, 96, 160, 50, 80, true, res(120, 200)), q("test2", ROOT, 96, 160, 40, 80, true, res(150, 210))));
        assertEquals(res(60, 100), runtimes(total, false, q("test1", ROOT, 96, 160, 50, 80, true, res(60, 100)),
                q("test2", ROOT, 96, 160, 40, 80, true, NONE)).get("test1"), "TestGroupQuotaManager_UpdateQuotaRequest, step 1");
    }

    @Test
    void updateQuotaInternalAndRequest() {
        ResourceAmounts total = res(96, 160);
        assertEquals(total, runtimes(total, false, q("test1", ROOT, 96, 160, 50, 80, true, res(120, 290))).get("test1"));
        assertEquals(res(64, 100), runtimes(total, false, q("test1", ROOT, 64, 100, 60, 90, true, res(120, 290))).get("test1"),
                "max lowered to 64 / 100 Gi");
    }

    @Test
    void notAllowLentResource() {
        ResourceAmounts total = res(100, 0);
        Map<String, ResourceAmounts> r = runtimes(total, false, q("test1", ROOT, 96, 0, 60, 0, true, res(120, 0)),
                q("test2", ROOT, 96, 0, 40, 0, false, NONE));
        assertEquals(60_000, r.get("test1").get("cpu"));
        assertEquals(40_000, r.get("test2").get("cpu"));
    }

    /** _2, _3 and _4: a parent that lends or not over children that lend or not, child1 asking 0, 40 and 60. */
    @Test
    void notAllowLentResourceInATree() {
        ResourceAmounts total = res(100, 0);
        record Case(String name, boolean rootLends, boolean child2Lends, long child1Request, long root, long child1, long child2) {
        }
        List<Case> cases = List.of(
                new Case("_2 no request", false, false, 0, 60, 20, 20), new Case("_2 40", false, false, 40, 60, 40, 20),
                new Case("_2 60", false, false, 60, 80, 60, 20),
                new Case("_3 no request", true, true, 0, 20, 20, 0), new Case("_3 40", true, true, 40, 40, 40, 0),
                new Case("_3 60", true, true, 60, 60, 60, 0),
                new Case("_4 no request", true, false, 0, 40, 20, 20), new Case("_4 40", true, false, 40, 60, 40, 20),
                new Case("_4 60", true, false, 60, 80, 60, 20));
        for (Case c : cases) {
            Map<String, ResourceAmounts> r = runtimes(total, false, q("test-root", ROOT, 96, 0, 60, 0, c.rootLends(), NONE),
                    q("test-child1", "test-root", 96, 0, 20, 0, false, res(c.child1Request(), 0)),
                    q("test-child2", "test-root", 96, 0, 20, 0, c.child2Lends(), NONE));
            assertEquals(List.of(c.root() * 1000, c.child1() * 1000, c.child2() * 1000), List.of(r.get("test-root").get("cpu"),
                    r.get("test-child1").get("cpu"), r.get("test-child2").get("cpu")), c.name());
        }
    }

    /** MultiUpdateQuotaRequest and _2: a parent's request is its children's limited requests, so a leaf's max caps its ancestors. */
    @Test
    void multiUpdateQuotaRequest() {
        ResourceAmounts total = res(96, 160);
        Map<String, ResourceAmounts> r = runtimes(total, false, q("test1", ROOT, 96, 160, 50, 80, true, NONE),
                q("test1-a", "test1", 96, 160, 50, 80, true, NONE), q("a-123", "test1-a", 96, 160, 50, 80, true, res(96, 130)));
        assertEquals(List.of(res(96, 130), res(96, 130), res(96, 130)), List.copyOf(r.values()));
        r = runtimes(total, false, q("test1", ROOT, 96, 160, 50, 80, true, NONE), q("test1-a", "test1", 96, 160, 50, 80, true, NONE),
                q("a-123", "test1-a", 64, 128, 50, 80, true, res(96, 130)));
        assertEquals(res(64, 128), r.get("a-123"), "a-123's max decreased to 64 / 128 Gi");
        assertEquals(res(64, 128), r.get("test1-a"));
        for (long[] step : new long[][] {{10, 30, 10, 30}, {25, 45, 25, 45}, {55, 75, 30, 60}}) {
            r = runtimes(total, false, q("test1", ROOT, 96, 160, 80, 80, true, NONE), q("test1-a", "test1", 60, 80, 50, 80, true, NONE),
                    q("a-123", "test1-a", 30, 60, 20, 40, true, res(step[0], step[1])));
            assertEquals(res(step[2], step[3]), r.get("a-123"), "_2, a-123 asking " + step[0]);
            assertEquals(res(step[2], step[3]), r.get("test1"), "_2, test1 with a-123 asking " + step[0]);
        }
    }

    /** WithScaledMinQuota1 and 2: mins above the parent's runtime scaled down, recovered when the cluster grows. */
    @Test
    void scaledMinQuota() {
        Q p = q("p", ROOT, 1000, 1000, 300, 300, true, NONE);
        ResourceAmounts ask = res(200, 200);
        Map<String, ResourceAmounts> r = runtimes(res(200, 200), true, p, q("a", "p", 1000, 1000, 100, 100, true, ask),
                q("b", "p", 1000, 1000, 100, 100, true, ask), q("c", "p", 1000, 1000, 100, 100, true, ask));
        assertEquals(res(200, 200), r.get("p"));
        assertEquals(milli(66667, 200 * GB / 3 + 1), r.get("a"));
        assertEquals(milli(66667, 200 * GB / 3 + 1), r.get("b"));
        assertEquals(milli(66666, 200 * GB / 3), r.get("c"), "largest remainder: the last unit is not invented (COMPAT §15.5)");
        QuotaTree t = QuotaTree.compute(List.of(p.quota(), q("a", "p", 1000, 1000, 100, 100, true, ask).quota()), res(200, 200), true);
        assertEquals(res(200, 200), t.states().get("p").autoScaleMin());

        r = runtimes(res(600, 600), true, p, q("a", "p", 1000, 1000, 100, 100, true, ask), q("b", "p", 1000, 1000, 100, 100, true, ask),
                q("c", "p", 1000, 1000, 100, 100, true, ask));
        assertEquals(List.of(res(600, 600), ask, ask, ask), List.copyOf(r.values()), "the cluster grown to 600: every min recovered");

        r = runtimes(res(200, 200), true, p, q("a", "p", 1000, 1000, 100, 100, true, ask), q("b", "p", 1000, 1000, 100, 100, true, NONE),
                q("c", "p", 1000, 1000, 100, 100, true, ask));
        assertEquals(List.of(res(200, 200), res(100, 100), res(0, 0), res(100, 100)), List.copyOf(r.values()),
                "_2: b asks nothing, a and c share its scaled min");
    }
}
