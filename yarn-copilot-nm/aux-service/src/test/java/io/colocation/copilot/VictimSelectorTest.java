package io.colocation.copilot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class VictimSelectorTest {
    private static TrackedContainer c(String id, boolean am, int vcores, long memoryMB, long start) {
        return new TrackedContainer(id, "app", "u", vcores, memoryMB, am, start);
    }

    private static List<String> ids(List<TrackedContainer> chosen) {
        return chosen.stream().map(x -> x.containerId).sorted().toList();
    }

    private static final long MI = 1024 * 1024;

    @Test
    void tasksBeforeApplicationMastersNewestFirst() {
        List<TrackedContainer> live = List.of(c("am", true, 1, 1024, 1), c("old", false, 1, 1024, 2), c("new", false, 1, 1024, 3));
        assertEquals(List.of("new"), ids(VictimSelector.choose(live, 1000, 512 * MI)));
        assertEquals(List.of("new", "old"), ids(VictimSelector.choose(live, 2000, 0)));
        assertEquals(List.of("am", "new", "old"), ids(VictimSelector.choose(live, 3000, 0)), "the AM only when tasks cannot cover");
    }

    @Test
    void oneContainerThatCoversTheNeedBeatsSeveralSmallOnes() {
        List<TrackedContainer> live = List.of(c("big-old", false, 4, 8192, 1), c("small-1", false, 1, 512, 5), c("small-2", false, 1, 512, 6));
        assertEquals(List.of("big-old"), ids(VictimSelector.choose(live, 0, 4096 * MI)));
    }

    @Test
    void picksThatTheOthersCoverAreDroppedAgain() {
        // newest first: small (1 GiB), then nothing alone covers the remaining 2.5 GiB, so mid (2 GiB), then big covers the rest;
        // big alone covers 3.5 GiB, so small and mid are dropped again
        List<TrackedContainer> live = List.of(c("big", false, 1, 4096, 1), c("mid", false, 1, 2048, 2), c("small", false, 1, 1024, 3));
        assertEquals(List.of("big"), ids(VictimSelector.choose(live, 0, 3584 * MI)));
    }

    @Test
    void askingForMoreThanExistsTakesEverything() {
        List<TrackedContainer> live = List.of(c("a", false, 1, 1024, 1), c("b", true, 1, 1024, 2));
        assertEquals(List.of("a", "b"), ids(VictimSelector.choose(live, 10_000, 0)));
        assertEquals(List.of(), ids(VictimSelector.choose(List.of(), 1000, 0)));
    }
}
