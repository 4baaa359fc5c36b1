package io.colocation.koordlet.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodReadingsTest {
    /** Every read, as pod name @ version: what the memo spared shows by its absence. */
    private final List<String> reads = new ArrayList<>();
    private final PodReadings<String> readings = new PodReadings<>(p -> {
        String r = p.getMetadata().getName() + "@" + p.getMetadata().getResourceVersion();
        reads.add(r);
        return r;
    });

    private static Pod pod(String name, String uid, String version) {
        return new PodBuilder().withNewMetadata().withNamespace("ns").withName(name).withUid(uid).withResourceVersion(version)
                .endMetadata().build();
    }

    /** One round over {@code pods}: their readings, then whether the round differed from the one before. */
    private List<Object> round(Pod... pods) {
        List<Object> out = new ArrayList<>();
        readings.beginRound();
        for (Pod p : pods) {
            out.add(readings.of(p));
        }
        out.add(readings.endRound());
        return out;
    }

    @Test
    void aPodIsReadAgainOnlyWhenItsVersionChanged() {
        assertEquals(List.of("a@1", "b@1", true), round(pod("a", "ua", "1"), pod("b", "ub", "1")));
        assertEquals(List.of("a@1", "b@1", false), round(pod("a", "ua", "1"), pod("b", "ub", "1")));
        assertEquals(List.of("a@2", "b@1", true), round(pod("a", "ua", "2"), pod("b", "ub", "1")));
        assertEquals(List.of("a@1", "b@1", "a@2"), reads);
    }

    @Test
    void aPodARoundDidNotReadIsForgottenAndReadAnewWhenBack() {
        round(pod("a", "ua", "1"), pod("b", "ub", "1"));
        assertEquals(List.of("a@1", true), round(pod("a", "ua", "1")), "b gone: the round differs");
        assertEquals(List.of("a@1", false), round(pod("a", "ua", "1")));
        assertEquals(List.of("a@1", "b@1", true), round(pod("a", "ua", "1"), pod("b", "ub", "1")));
        assertEquals(List.of("a@1", "b@1", "b@1"), reads);
    }

    @Test
    void aPodWithoutUidOrVersionIsReadEachTimeAndNotKept() {
        for (int i = 0; i < 2; i++) {
            assertEquals(List.of("x@1", "y@null", true), round(pod("x", null, "1"), pod("y", "uy", null)));
        }
        assertEquals(List.of("x@1", "y@null", "x@1", "y@null"), reads);
    }

    @Test
    void aNullReadingIsKeptAsAnyOther() {
        PodReadings<String> none = new PodReadings<>(p -> {
            reads.add(p.getMetadata().getName());
            return null;
        });
        for (int i = 0; i < 2; i++) {
            none.beginRound();
            assertEquals(null, none.of(pod("a", "ua", "1")));
            assertEquals(i == 0, none.endRound());
        }
        assertEquals(List.of("a"), reads);
    }
}
