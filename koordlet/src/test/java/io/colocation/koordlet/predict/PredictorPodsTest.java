package io.colocation.koordlet.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.PriorityClass;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PredictorPodsTest {
    private static Pod pod(String name, String version, String phase, String cpu) {
        return new PodBuilder().withNewMetadata().withNamespace("ns").withName(name).withUid("uid-" + name).withResourceVersion(version)
                .withCreationTimestamp("2026-01-01T00:00:00Z").endMetadata().withNewSpec().withPriority(9000).addNewContainer()
                .withName("c").withNewResources().withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("1Gi")))
                .endResources().endContainer().endSpec().withNewStatus().withPhase(phase).endStatus().build();
    }

    @Test
    void podsAtTheSameVersionsAreNotReadAgain() {
        PredictorPods cache = new PredictorPods();
        List<PredictorPod> first = cache.of(List.of(pod("a", "1", "Running", "1"), pod("b", "1", "Running", "2")), (w, p) -> { });
        // new Pod objects, as an informer hands them, with the same uids and versions
        List<PredictorPod> again = cache.of(List.of(pod("a", "1", "Running", "1"), pod("b", "1", "Running", "2")), (w, p) -> { });
        assertEquals(2, again.size());
        assertSame(first.get(0), again.get(0));
        assertSame(first.get(1), again.get(1));
        assertEquals(PriorityClass.PROD, first.get(0).priorityClass());
        assertEquals(2000, first.get(1).requests().cpuMilli());
    }

    @Test
    void aChangedVersionIsReadAgainAndAPodGoneIsForgotten() {
        PredictorPods cache = new PredictorPods();
        List<PredictorPod> first = cache.of(List.of(pod("a", "1", "Running", "1"), pod("b", "1", "Running", "2")), (w, p) -> { });
        List<PredictorPod> ended = cache.of(List.of(pod("a", "2", "Succeeded", "1")), (w, p) -> { });
        assertEquals(1, ended.size());
        assertNotSame(first.get(0), ended.get(0));
        assertTrue(ended.get(0).ending());
        List<PredictorPod> back = cache.of(List.of(pod("a", "2", "Succeeded", "1"), pod("b", "1", "Running", "2")), (w, p) -> { });
        assertNotSame(first.get(1), back.get(1), "b was gone for a round: read again");
        assertEquals(first.get(1), back.get(1));
    }

    @Test
    void anUnreadablePodIsLeftOutAndItsProblemToldEveryRound() {
        PredictorPods cache = new PredictorPods();
        List<String> problems = new ArrayList<>();
        Pod bad = pod("bad", "1", "Running", "1");
        bad.getMetadata().setCreationTimestamp("yesterday");
        Pod noUid = pod("x", "1", "Running", "1");
        noUid.getMetadata().setUid(null);
        for (int round = 0; round < 2; round++) {
            List<PredictorPod> pods = cache.of(List.of(pod("a", "1", "Running", "1"), bad, noUid), (w, p) -> problems.add(w + ": " + p));
            assertEquals(List.of("uid-a"), pods.stream().map(PredictorPod::uid).toList());
        }
        assertEquals(2, problems.size());
        assertTrue(problems.get(0).startsWith("pod ns/bad: "), problems.get(0));
        assertEquals(problems.get(0), problems.get(1));
    }
}
