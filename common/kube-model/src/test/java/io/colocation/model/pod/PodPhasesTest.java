package io.colocation.model.pod;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

class PodPhasesTest {

    @ParameterizedTest(name = "phase {0}: ended {1}, running {2}")
    @CsvSource(nullValues = "none", value = {
            "none,      false, false",
            "Pending,   false, false",
            "Running,   false, true",
            "Unknown,   false, false",
            "Succeeded, true,  false",
            "Failed,    true,  false"})
    void aPodHasEndedOnlyWhenItSucceededOrFailed(String phase, boolean ended, boolean running) {
        Pod pod = new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewStatus().withPhase(phase).endStatus().build();
        assertEquals(ended, PodPhases.ended(pod));
        assertEquals(running, PodPhases.running(pod));
        assertEquals(phase, PodPhases.of(pod));
    }

    @Test
    void aPodWithoutStatusHoldsWhatItAskedFor() {
        Pod pod = new PodBuilder().withNewMetadata().withName("p").endMetadata().build();
        assertFalse(PodPhases.ended(pod));
        assertNull(PodPhases.of(pod));
    }
}
