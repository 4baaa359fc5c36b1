package io.colocation.koordlet.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodTargetsTest {
    private static Pod pod(String name, String version, String phase) {
        return new PodBuilder().withNewMetadata().withNamespace("ns").withName(name).withUid("uid-" + name).withResourceVersion(version)
                .endMetadata().withNewSpec().addNewContainer().withName("c").endContainer().endSpec().withNewStatus().withPhase(phase)
                .addNewContainerStatus().withName("c").withContainerID("containerd://" + name).endContainerStatus().endStatus().build();
    }

    private static List<String> uids(List<CollectTargets.PodTarget> targets) {
        return targets.stream().map(CollectTargets.PodTarget::uid).toList();
    }

    @Test
    void theSamePodsAtTheSameVersionsGiveTheLastTargetsAgain() {
        PodTargets targets = new PodTargets();
        List<CollectTargets.PodTarget> first = targets.of(List.of(pod("a", "1", "Running"), pod("b", "1", "Running")));
        // new Pod objects, as an informer hands them, with the same uids and versions
        assertSame(first, targets.of(List.of(pod("a", "1", "Running"), pod("b", "1", "Running"))));
        assertEquals(List.of("uid-a", "uid-b"), uids(first));
        assertEquals(Map.of("uid-a", "ns/a", "uid-b", "ns/b"), targets.names());
    }

    @Test
    void aChangedVersionAPodGoneOrAPodAddedIsReadAgain() {
        PodTargets targets = new PodTargets();
        List<CollectTargets.PodTarget> first = targets.of(List.of(pod("a", "1", "Running"), pod("b", "1", "Running")));
        List<CollectTargets.PodTarget> ended = targets.of(List.of(pod("a", "1", "Running"), pod("b", "2", "Succeeded")));
        assertNotSame(first, ended);
        assertEquals(List.of("uid-a"), uids(ended));
        assertEquals(List.of("uid-a"), uids(targets.of(List.of(pod("a", "1", "Running")))));
        assertEquals(List.of("uid-a", "uid-c"), uids(targets.of(List.of(pod("a", "1", "Running"), pod("c", "1", "Running")))));
        assertEquals(Map.of("uid-a", "ns/a", "uid-c", "ns/c"), targets.names());
    }
}
