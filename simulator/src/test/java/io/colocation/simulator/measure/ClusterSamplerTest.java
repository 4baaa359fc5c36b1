package io.colocation.simulator.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClusterSamplerTest {

    /** Milli-cores; YARN published -1: none published yet. Expected: O overcommit, P shrink on its way, - neither. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "grants within Batch,                                   10000, 6000, 2000, 4000, 4000, 1000, -",
            "published grants beyond Batch,                         10000, 7000, 2000, 4000, 4000, 1000, O",
            "YARN published a shrink the RM has not applied,        13883, 12494, 14000, 0, 1000, 0, P",
            "the same once the RM applied it,                       13883, 12494, 14000, 0, 0, 0, -",
            "a shrink on its way whose room nobody needs,           10000, 6000, 0, 3000, 4000, 0, -",
            "a grow the RM has not applied leaves no extra room,    10000, 6000, 2000, 4000, 2000, 1000, -",
            "before the first YARN grant its capacity is judged,    10000, 6000, 2000, -1, 32000, 0, O",
            "nothing published: no Batch to judge against,          -1, 0, 0, -1, 32000, 0, -",
            "a grant held at what its side uses is no room,         8000, 6000, 6000, 2000, 2000, 2000, -",
    })
    void judgesTheDecisionAndTheSchedulersWayToItApart(String name, long origin, long kGrant, long kAllocated, long yPublished,
            long yApplied, long yAllocated, String expected) {
        ClusterSampler.Verdict v = ClusterSampler.judge(origin, kGrant, kAllocated,
                new YarnNodeFigures(yApplied, 0, yAllocated, 0, yPublished));
        String actual = v.overcommit() != null ? "O" : v.shrinkPending() != null ? "P" : "-";
        assertEquals(expected, actual, name + ": " + v);
    }
}
