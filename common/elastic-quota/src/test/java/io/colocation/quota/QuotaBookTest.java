package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The book's hot paths: a reservation moves requests into used and back; a quota change re-resolves pods only when one could move. */
class QuotaBookTest {
    private static final ResourceAmounts BIG = ResourceAmounts.of("cpu", Long.MAX_VALUE / 5, "memory", Long.MAX_VALUE / 5);
    private static final ResourceAmounts CPU = ResourceAmounts.of("cpu", 1500L);

    private static QuotaDirectory directory(long teamMin, List<String> listed) {
        return QuotaDirectory.of(List.of(new ElasticQuotaSpec("team", "team", QuotaTree.ROOT, false, true, ResourceAmounts.of("cpu", teamMin),
                ResourceAmounts.of("cpu", 8000), ResourceAmounts.of("cpu", 8000), listed, null)), "koordinator-system", BIG, BIG);
    }

    private static QuotaPod pod(String ns, String name) {
        return new QuotaPod(ns + "/" + name, ns, Map.of(QuotaDirectory.LABEL_PREEMPTIBLE, "false"), ResourceAmounts.of("cpu", 1500,
                "memory", 1L << 30), false);
    }

    @Test
    void aReservationMakesTheRequestUsedAndItsUndoingTakesItBack() {
        QuotaBook book = new QuotaBook(directory(4000, List.of()));
        book.put(pod("team", "a"));
        assertEquals(Set.of("team"), book.takeChangedRequests());
        assertTrue(book.assign("team/a", true));
        assertEquals(new QuotaUsage(CPU, CPU, CPU, CPU), book.usage("team"), "masked to max's cpu; non-preemptible, so used there too");
        assertTrue(book.pod("team/a").assigned());
        assertTrue(book.assign("team/a", true), "twice is once");
        assertEquals(new QuotaUsage(CPU, CPU, CPU, CPU), book.usage("team"));
        assertTrue(book.assign("team/a", false));
        ResourceAmounts none = ResourceAmounts.of("cpu", 0L);
        assertEquals(new QuotaUsage(CPU, none, CPU, none), book.usage("team"));
        assertEquals(Set.of(), book.takeChangedRequests(), "placing a pod asks nothing new");
        assertFalse(book.assign("team/unknown", true));
    }

    @Test
    void aQuotaChangeReResolvesPodsOnlyWhenOneCouldMove() {
        QuotaBook book = new QuotaBook(directory(4000, List.of()));
        book.put(pod("team", "a"));
        book.put(pod("other", "b"));
        assertEquals(CPU, book.usage(QuotaDirectory.DEFAULT).request().masked(Set.of("cpu")));
        book.takeChangedRequests();
        book.directory(directory(2000, List.of()));
        assertEquals(Set.of(), book.takeChangedRequests(), "a min change moves no pod: every request stays");
        assertTrue(directory(2000, List.of()).resolvesAs(directory(4000, List.of())));
        assertEquals(CPU, book.usage("team").request());
        book.directory(directory(2000, List.of("other")));
        assertEquals(CPU.plus(CPU), book.usage("team").request(), "the namespaces annotation now lists other: its pod moved");
        assertEquals(Set.of("team", QuotaDirectory.DEFAULT), book.takeChangedRequests());
        assertEquals(QuotaUsage.NONE.request(), book.usage(QuotaDirectory.DEFAULT).request().withoutZeros());
    }
}
