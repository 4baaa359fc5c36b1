package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Koordinator's revocation: least important first, down to the runtime, the most important put back while they fit; and its timer. */
class QuotaRevocationTest {
    private static final Instant T0 = Instant.parse("2026-12-03T08:00:00Z");

    private static QuotaRevocation.Candidate pod(String name, int priority, int startedSecond, long cpu) {
        return new QuotaRevocation.Candidate("ns/" + name, priority, T0.plusSeconds(startedSecond), ResourceAmounts.of("cpu", cpu));
    }

    private static List<String> victims(long used, long runtime, QuotaRevocation.Candidate... pods) {
        return QuotaRevocation.victims(ResourceAmounts.of("cpu", used), ResourceAmounts.of("cpu", runtime), List.of(pods)).stream()
                .map(c -> c.key().substring(3)).toList();
    }

    @Test
    void theLeastImportantGoFirstAndOnlyAsManyAsTheRuntimeNeeds() {
        record Case(String name, long used, long runtime, List<QuotaRevocation.Candidate> pods, List<String> victims) {
        }
        List<Case> cases = List.of(
                new Case("within its runtime: nothing", 4000, 4000, List.of(pod("a", 0, 0, 4000)), List.of()),
                new Case("lower priority first", 6000, 4000,
                        List.of(pod("high", 100, 0, 1000), pod("low", 1, 0, 1000), pod("mid", 50, 0, 1000), pod("low2", 1, 1, 1000),
                                pod("x", 100, 1, 1000), pod("y", 100, 2, 1000)),
                        List.of("low", "low2")),
                new Case("same priority: the later start first", 5000, 4000,
                        List.of(pod("old", 0, 0, 1000), pod("new", 0, 10, 1000), pod("mid", 0, 5, 3000)), List.of("new")),
                // small (1 core) and big (3) are taken off to reach 4 (7 - 1 - 3 = 3); big cannot come back (6 > 4), small can (4).
                new Case("put back, the more important first, while they fit", 7000, 4000,
                        List.of(pod("small", 0, 0, 1000), pod("big", 1, 0, 3000), pod("high", 9, 0, 3000)), List.of("big")),
                new Case("never within: every pod taken off goes", 9000, 4000,
                        List.of(pod("a", 0, 0, 1000), pod("b", 1, 0, 1000)), List.of("a", "b")));
        for (Case c : cases) {
            assertEquals(c.victims, victims(c.used, c.runtime, c.pods.toArray(QuotaRevocation.Candidate[]::new)), c.name);
        }
    }

    @Test
    void aNameTheRuntimeLacksIsNotCompared() {
        List<QuotaRevocation.Candidate> pods = List.of(new QuotaRevocation.Candidate("ns/a", 0, T0,
                ResourceAmounts.of("cpu", 1000, "memory", 1 << 30)));
        assertEquals(List.of(), QuotaRevocation.victims(ResourceAmounts.of("cpu", 1000, "memory", 1 << 30),
                ResourceAmounts.of("cpu", 1000), pods));
    }

    @Test
    void aQuotaIsDueOnlyAfterItsOveruseLastedLongerThanTheDelayAndThenWaitsAgain() {
        QuotaOveruse timers = new QuotaOveruse(Duration.ofSeconds(120));
        assertFalse(timers.due("a", true, T0), "first seen: its timer starts");
        assertFalse(timers.due("a", true, T0.plusSeconds(120)), "120 s is not longer than the delay");
        assertTrue(timers.due("a", true, T0.plusSeconds(121)));
        assertFalse(timers.due("a", true, T0.plusSeconds(122)), "after revoking, the timer starts again");
        assertFalse(timers.due("a", false, T0.plusSeconds(200)));
        assertFalse(timers.due("a", true, T0.plusSeconds(300)), "within at 200 s: 100 s of overuse");
        assertTrue(timers.due("a", true, T0.plusSeconds(321)));
        timers.retain(java.util.Set.of());
        assertFalse(timers.due("a", true, T0.plusSeconds(900)), "a quota forgotten starts again");
        assertTrue(QuotaOveruse.overused(ResourceAmounts.of("cpu", 2), ResourceAmounts.of("cpu", 1)));
        assertFalse(QuotaOveruse.overused(ResourceAmounts.of("cpu", 2, "memory", 9), ResourceAmounts.of("cpu", 2)));
    }
}
