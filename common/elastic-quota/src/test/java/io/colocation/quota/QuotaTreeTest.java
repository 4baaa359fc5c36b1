package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Koordinator's group quota manager cases over a tree: requests up, runtimes down, min scaling (§15.3). */
class QuotaTreeTest {
    private static Quota quota(String name, String parent, ResourceAmounts min, ResourceAmounts max, ResourceAmounts request) {
        return new Quota(name, parent, true, min, max, max, request);
    }

    private static ResourceAmounts cm(long cpu, long memory) {
        return ResourceAmounts.of("cpu", cpu, "memory", memory);
    }

    /** TestRuntimeQuotaCalculator_UpdateOneGroupRuntimeQuota, its three steps (weights 1, min scaling off as in that test). */
    @Test
    void aQuotaLendsWhatItDoesNotAskAndTakesItBack() {
        ResourceAmounts total = cm(100, 1000);
        ResourceAmounts one = cm(1, 1);
        for (long[] step : new long[][] {{0, 0, 90}, {30, 30, 70}, {60, 60, 50}}) {
            QuotaTree t = QuotaTree.compute(List.of(
                    new Quota("test1", QuotaTree.ROOT, true, cm(60, 600), cm(80, 800), one, cm(step[0], step[0] * 10)),
                    new Quota("test2", QuotaTree.ROOT, true, cm(50, 500), cm(100, 1000), one, cm(90, 900))), total, false);
            assertEquals(cm(step[1], step[1] * 10), t.states().get("test1").runtime(), "test1 asking " + step[0]);
            assertEquals(cm(step[2], step[2] * 10), t.states().get("test2").runtime(), "test1 asking " + step[0]);
        }
    }

    /** The proposal's scaling: a parent of 90 whose children's mins sum to 100 gives them 54 and 36. */
    @Test
    void minsAboveTheParentAreScaled() {
        QuotaTree t = QuotaTree.compute(List.of(
                new Quota("parent", QuotaTree.ROOT, false, cm(90, 90), cm(90, 90), cm(90, 90), ResourceAmounts.NONE),
                quota("a", "parent", cm(60, 60), cm(100, 100), cm(100, 100)),
                quota("b", "parent", cm(40, 40), cm(100, 100), cm(100, 100))), cm(1000, 1000), true);
        assertEquals(cm(90, 90), t.states().get("parent").runtime());
        assertEquals(cm(54, 54), t.states().get("a").autoScaleMin());
        assertEquals(cm(36, 36), t.states().get("b").autoScaleMin());
        assertEquals(90, t.states().get("a").runtime().get("cpu") + t.states().get("b").runtime().get("cpu"));
        QuotaTree unscaled = QuotaTree.compute(List.of(
                new Quota("parent", QuotaTree.ROOT, false, cm(90, 90), cm(90, 90), cm(90, 90), ResourceAmounts.NONE),
                quota("a", "parent", cm(60, 60), cm(100, 100), cm(100, 100)),
                quota("b", "parent", cm(40, 40), cm(100, 100), cm(100, 100))), cm(1000, 1000), false);
        assertEquals(cm(60, 60), unscaled.states().get("a").runtime(), "without scaling each keeps its min, above the parent");
    }

    /** Requests go up capped at max; a quota that does not lend asks at least its min; the runtime is masked to max's names. */
    @Test
    void requestsGoUpCappedAndRuntimesComeDown() {
        QuotaTree t = QuotaTree.compute(List.of(
                new Quota("team-a", QuotaTree.ROOT, true, cm(40, 40), cm(100, 100), cm(1, 1), ResourceAmounts.NONE),
                quota("a-etl", "team-a", cm(20, 20), cm(30, 30), cm(50, 10)),
                quota("a-web", "team-a", cm(20, 20), ResourceAmounts.of("cpu", 100), ResourceAmounts.of("cpu", 5)),
                new Quota("team-b", QuotaTree.ROOT, false, cm(40, 40), cm(100, 100), cm(1, 1), ResourceAmounts.NONE)),
                cm(100, 100), true);
        assertEquals(cm(30, 10), t.states().get("a-etl").limitedRequest(), "capped at max");
        assertEquals(cm(35, 10), t.states().get("team-a").request(), "its children's limited requests");
        assertEquals(cm(40, 40), t.states().get("team-b").request(), "raised to min: it does not lend");
        assertEquals(cm(40, 40), t.states().get("team-b").runtime(), "it keeps its min idle");
        assertEquals(cm(35, 10), t.states().get("team-a").runtime());
        assertEquals(cm(30, 10), t.states().get("a-etl").runtime());
        assertEquals(ResourceAmounts.of("cpu", 5), t.states().get("a-web").runtime(), "masked to its max's names");
    }

    @Test
    void aQuotaOffTheTreeIsNamedNotFollowed() {
        QuotaTree t = QuotaTree.compute(List.of(
                quota("lost", "nobody", cm(1, 1), cm(10, 10), cm(5, 5)),
                quota("x", "y", cm(1, 1), cm(10, 10), cm(5, 5)),
                quota("y", "x", cm(1, 1), cm(10, 10), cm(5, 5)),
                quota("fine", QuotaTree.ROOT, cm(1, 1), cm(10, 10), cm(5, 5))), cm(100, 100), true);
        assertEquals("its parent nobody does not exist", t.problems().get("lost"));
        assertTrue(t.problems().get("x").contains("a cycle"), t.problems().toString());
        assertEquals(cm(5, 5), t.states().get("fine").runtime());
        assertEquals(List.of("fine"), List.copyOf(t.states().keySet()));
    }
}
