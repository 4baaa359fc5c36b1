package io.colocation.scheduler.plugins.coscheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PodGroup status rules of docs/koordinator-compatibility.md §10.4, one row per transition. */
class PodGroupStatusTest {
    private static final Instant NOW = Instant.parse("2026-11-23T09:30:00.250Z");

    /** A member: bound to a node or not, in a pod phase. */
    private static Pod pod(String name, boolean bound, String phase) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata().withNewSpec()
                .endSpec().withNewStatus().withPhase(phase).endStatus();
        if (bound) {
            b.editSpec().withNodeName("n1").endSpec();
        }
        return b.build();
    }

    private static List<Pod> pods(int bound, int pending, String boundPhase) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < bound; i++) {
            pods.add(pod("b" + i, true, boundPhase));
        }
        for (int i = 0; i < pending; i++) {
            pods.add(pod("p" + i, false, "Pending"));
        }
        return pods;
    }

    private record Row(String name, String phase, int min, List<Pod> members, String expected) {
    }

    @Test
    void phases() {
        List<Row> rows = List.of(
                new Row("no status yet", "", 2, List.of(), "Pending"),
                new Row("pending, too few members", "Pending", 3, pods(0, 2, "Pending"), "Pending"),
                new Row("pending, enough members", "Pending", 3, pods(0, 3, "Pending"), "PreScheduling"),
                new Row("pre-scheduling, none bound", "PreScheduling", 3, pods(0, 3, "Pending"), "Scheduling"),
                new Row("some bound", "Scheduling", 3, pods(2, 1, "Pending"), "Scheduling"),
                new Row("all bound, not running", "Scheduling", 3, pods(3, 0, "Pending"), "Scheduled"),
                new Row("bound and running", "Scheduled", 3, pods(3, 0, "Running"), "Running"),
                new Row("one failed", "Running", 2, List.of(pod("a", true, "Failed"), pod("b", true, "Running")), "Failed"),
                new Row("all succeeded", "Running", 2, pods(2, 0, "Succeeded"), "Finished"),
                new Row("members gone", "Running", 2, List.of(), "Pending"));
        for (Row row : rows) {
            Map<String, Object> status = row.phase.isEmpty() ? Map.of() : Map.of("phase", row.phase);
            assertEquals(row.expected, PodGroupStatus.next(status, row.min, row.members, NOW).get("phase"), row.name);
        }
    }

    @Test
    void countsOwnersAndTheStartOfScheduling() {
        Map<String, Object> scheduling = PodGroupStatus.next(Map.of("phase", "PreScheduling"), 3, pods(1, 2, "Running"), NOW);
        assertEquals(1, scheduling.get("scheduled"));
        assertEquals(1, scheduling.get("running"));
        assertEquals("2026-11-23T09:30:00Z", scheduling.get("scheduleStartTime"), "set on entering Scheduling, a metav1.Time");
        Map<String, Object> later = PodGroupStatus.next(scheduling, 3, pods(2, 1, "Running"), NOW.plusSeconds(30));
        assertEquals("2026-11-23T09:30:00Z", later.get("scheduleStartTime"), "kept");

        Pod owned = new PodBuilder(pod("x", false, "Pending")).editMetadata().addNewOwnerReference().withName("spark-b")
                .withKind("Job").endOwnerReference().addNewOwnerReference().withName("spark-a").withKind("Job")
                .endOwnerReference().endMetadata().build();
        Map<String, Object> pre = PodGroupStatus.next(Map.of("phase", "Pending"), 1, List.of(owned), NOW);
        assertEquals("PreScheduling", pre.get("phase"));
        assertEquals("ns/spark-a,ns/spark-b", pre.get("occupiedBy"));
        Map<String, Object> scheduling2 = PodGroupStatus.next(pre, 1, List.of(owned), NOW);
        assertEquals(scheduling2, PodGroupStatus.next(scheduling2, 1, List.of(owned), NOW),
                "with the same members the status settles: nothing more to write");
    }
}
