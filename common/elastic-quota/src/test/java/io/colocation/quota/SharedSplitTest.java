package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Koordinator's runtime_quota_calculator cases, one parent and one resource (docs/koordinator-compatibility.md §15.3, §15.5). */
class SharedSplitTest {
    private static SharedSplit.Child child(String name, long weight, long request, long min) {
        return new SharedSplit.Child(name, request, min, weight, true);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // name, total, children, runtimes
                Arguments.of("TestRuntimeQuotaCalculator_Iteration4AdjustQuota", 100L, List.of(child("node1", 40, 5, 10),
                        child("node2", 60, 20, 15), child("node3", 50, 40, 20), child("node4", 80, 70, 15)), new long[] {5, 20, 35, 40}),
                Arguments.of("the proposal's illustration: A lends, B and C share 1:2", 60L, List.of(child("A", 1, 4, 10),
                        child("B", 1, 40, 10), child("C", 2, 50, 20)), new long[] {4, 19, 37}),
                Arguments.of("three equal borrowers share 7: the unit left to the first name", 7L, List.of(child("a", 1, 100, 0),
                        child("b", 1, 100, 0), child("c", 1, 100, 0)), new long[] {3, 2, 2}),
                Arguments.of("three equal borrowers share 5: none invented", 5L, List.of(child("a", 1, 100, 0), child("b", 1, 100, 0),
                        child("c", 1, 100, 0)), new long[] {2, 2, 1}),
                Arguments.of("TestRuntimeQuotaCalculator_UpdateOneGroupRuntimeQuota2: both above min, 1:1", 120L,
                        List.of(child("test1", 1, 80, 50), child("test2", 1, 100, 50)), new long[] {60, 60}),
                Arguments.of("a lending quota without pods gets nothing, whatever its min", 100L, List.of(child("idle", 1, 0, 60),
                        child("busy", 1, 90, 50)), new long[] {0, 90}),
                Arguments.of("a weight-0 quota never borrows", 100L, List.of(child("zero", 0, 80, 10), child("one", 1, 80, 10)),
                        new long[] {10, 80}),
                Arguments.of("mins above the total: each keeps its min, nothing shared", 50L, List.of(child("a", 1, 80, 40),
                        child("b", 1, 80, 30)), new long[] {40, 30}),
                Arguments.of("memory in bytes: the 128-bit product, every unit shared", 3L * (1L << 40) + 1, List.of(
                        child("a", 1L << 40, Long.MAX_VALUE / 4, 0), child("b", 1L << 40, Long.MAX_VALUE / 4, 0),
                        child("c", 1L << 40, Long.MAX_VALUE / 4, 0)), new long[] {(1L << 40) + 1, 1L << 40, 1L << 40}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void splitsAsKoordinator(String name, long total, List<SharedSplit.Child> children, long[] expected) {
        assertArrayEquals(expected, SharedSplit.split(total, children));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void neverSharesMoreThanTheTotalWhenTheMinsFit(String name, long total, List<SharedSplit.Child> children, long[] expected) {
        long mins = children.stream().mapToLong(c -> Math.min(c.min(), c.request())).sum();
        if (mins <= total) {
            assertEquals(true, LongStream.of(SharedSplit.split(total, children)).sum() <= total, name);
        }
    }
}
