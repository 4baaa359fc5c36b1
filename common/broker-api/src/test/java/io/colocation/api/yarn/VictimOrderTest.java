package io.colocation.api.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.api.yarn.VictimOrder.Candidate;
import java.util.List;
import org.junit.jupiter.api.Test;

class VictimOrderTest {
    private static Candidate task(String id, long started, long mb, int vcores) {
        return new Candidate(id, false, 0, 20, started, mb, vcores);
    }

    private static List<String> ids(List<Candidate> chosen) {
        return chosen.stream().map(Candidate::containerId).sorted().toList();
    }

    @Test
    void newestTasksGoFirstAndNoMoreThanNeeded() {
        List<Candidate> running = List.of(task("old", 1, 1024, 1), task("mid", 2, 1024, 1), task("new", 3, 1024, 1));
        assertEquals(List.of("new"), ids(VictimOrder.choose(running, 512, 1)));
        assertEquals(List.of("mid", "new"), ids(VictimOrder.choose(running, 1500, 0)));
        assertEquals(List.of(), ids(VictimOrder.choose(running, 0, 0)));
    }

    @Test
    void anApplicationMasterGoesOnlyWhenTasksCannotCover() {
        Candidate am = new Candidate("am", true, 0, 0, 9, 2048, 1);
        List<Candidate> running = List.of(am, task("t1", 1, 512, 1));
        assertEquals(List.of("t1"), ids(VictimOrder.choose(running, 256, 1)));
        assertEquals(List.of("am", "t1"), ids(VictimOrder.choose(running, 2048, 2)));
    }

    @Test
    void oneContainerThatCoversBeatsSeveralSmallOnes() {
        List<Candidate> running = List.of(task("small-new", 5, 256, 1), task("small", 4, 256, 1), task("big", 1, 2048, 2));
        assertEquals(List.of("big"), ids(VictimOrder.choose(running, 1024, 1)));
    }

    @Test
    void lowerApplicationPriorityAndLessImportantRequestsGoFirst() {
        Candidate urgentApp = new Candidate("urgent-app", false, 10, 20, 9, 1024, 1);
        Candidate reduce = new Candidate("reduce", false, 0, 10, 9, 1024, 1);
        Candidate map = new Candidate("map", false, 0, 20, 1, 1024, 1);
        assertEquals(List.of("map"), ids(VictimOrder.choose(List.of(urgentApp, reduce, map), 1024, 1)));
        assertEquals(List.of("map", "reduce"), ids(VictimOrder.choose(List.of(urgentApp, reduce, map), 2048, 2)));
    }

    @Test
    void containersThatFreeNothingMissingAreNotTaken() {
        List<Candidate> running = List.of(task("memory-only", 9, 4096, 0), task("cpu", 1, 128, 2));
        assertEquals(List.of("cpu"), ids(VictimOrder.choose(running, 0, 2)));
    }
}
