package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Koordinator's PreFilter check on a book of pods: runtime, the non-preemptible min, the parents; and pods moving quota. */
class QuotaAdmissionTest {
    private static final ResourceAmounts BIG = ResourceAmounts.of("cpu", Long.MAX_VALUE / 5, "memory", Long.MAX_VALUE / 5);

    private static ElasticQuotaSpec spec(String name, String parent, boolean isParent, long min, long max) {
        return new ElasticQuotaSpec(name, name, parent, isParent, true, ResourceAmounts.of("cpu", min), ResourceAmounts.of("cpu", max),
                ResourceAmounts.of("cpu", max), List.of(), null);
    }

    private static QuotaPod pod(String name, String quota, long cpu, boolean onNode, boolean preemptible) {
        Map<String, String> labels = preemptible ? Map.of(QuotaDirectory.LABEL_QUOTA_NAME, quota)
                : Map.of(QuotaDirectory.LABEL_QUOTA_NAME, quota, QuotaDirectory.LABEL_PREEMPTIBLE, "false");
        return new QuotaPod("ns/" + name, "ns", labels, ResourceAmounts.of("cpu", cpu), onNode);
    }

    private static QuotaDirectory tree() {
        return QuotaDirectory.of(List.of(spec("org", QuotaTree.ROOT, true, 8000, 8000), spec("team", "org", false, 4000, 10000)),
                "koordinator-system", BIG, BIG);
    }

    private static String check(QuotaBook book, QuotaPod pod, boolean parents) {
        QuotaRuntime rt = QuotaRuntime.compute(book.directory(), book::usage, ResourceAmounts.of("cpu", 6000), true);
        return QuotaAdmission.check(rt, q -> rt.usage(q, book::usage), book.directory().quotaOf(pod.namespace(), pod.labels()),
                pod.request(), pod.nonPreemptible(), true, parents);
    }

    @Test
    void aNonPreemptiblePodStaysWithinTheOriginalMin() {
        QuotaBook book = new QuotaBook(tree());
        book.put(pod("held", "team", 3500, true, false));
        QuotaPod next = pod("next", "team", 1000, false, false);
        book.put(next);
        assertEquals("Insufficient non-preemptible quotas, quotaName: team, min: cpu:4, nonPreemptibleUsed: cpu:3500m,"
                + " pod's request: cpu:1, exceedDimensions: [cpu]", check(book, next, false));
        QuotaPod preemptible = pod("other", "team", 1000, false, true);
        book.put(preemptible);
        assertNull(check(book, preemptible, false), "a preemptible pod is held to the runtime only");
    }

    @Test
    void theParentCheckNamesTheQuotasFromTheTop() {
        QuotaDirectory d = QuotaDirectory.of(List.of(spec("org", QuotaTree.ROOT, true, 2000, 2000),
                spec("team", "org", false, 1000, 10000)), "koordinator-system", BIG, BIG);
        QuotaBook book = new QuotaBook(d);
        book.put(pod("a", "team", 1500, true, true));
        QuotaPod next = pod("b", "team", 1000, false, true);
        book.put(next);
        assertEquals("Insufficient quotas, quotaName: team, runtime: cpu:2, used: cpu:1500m, pod's request: cpu:1,"
                + " exceedDimensions: [cpu]", check(book, next, true));
        QuotaPod small = pod("c", "team", 400, false, true);
        book.remove(next.key());
        book.put(small);
        assertNull(check(book, small, true));
    }

    @Test
    void aQuotaCreatedAfterItsPodsTakesThemFromTheDefaultQuota() {
        QuotaDirectory none = QuotaDirectory.of(List.of(), "koordinator-system", BIG, BIG);
        QuotaBook book = new QuotaBook(none);
        book.put(new QuotaPod("team/a", "team", Map.of(), ResourceAmounts.of("cpu", 500), true));
        assertEquals(500, book.usage(QuotaDirectory.DEFAULT).used().get("cpu"));
        book.takeChangedRequests();
        book.directory(QuotaDirectory.of(List.of(spec("team", QuotaTree.ROOT, false, 0, 1000)), "koordinator-system", BIG, BIG));
        assertEquals(500, book.usage("team").used().get("cpu"), "the quota named like the namespace, in it");
        assertEquals(0, book.usage(QuotaDirectory.DEFAULT).used().get("cpu"));
        assertEquals(Set.of("team", QuotaDirectory.DEFAULT), book.takeChangedRequests());
        book.put(book.pod("team/a").assigned(false));
        assertEquals(Set.of(), book.takeChangedRequests(), "unplacing a pod changes what is used, not what is asked");
        assertEquals(0, book.usage("team").used().get("cpu"));
    }

    @Test
    void theRootsRuntimeLeavesOutWhatTheDefaultQuotaUses() {
        QuotaBook book = new QuotaBook(tree());
        book.put(new QuotaPod("other/x", "other", Map.of(), ResourceAmounts.of("cpu", 1000), true));
        QuotaRuntime rt = QuotaRuntime.compute(book.directory(), book::usage, ResourceAmounts.of("cpu", 6000), true);
        assertEquals(5000, rt.get(QuotaTree.ROOT).state().runtime().get("cpu"));
        assertEquals(List.of(QuotaTree.ROOT, QuotaDirectory.DEFAULT, QuotaDirectory.SYSTEM, "org", "team"),
                rt.entries().stream().map(e -> e.spec().name()).toList());
    }
}
