package io.colocation.scheduler.plugins.queuesort;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.scheduler.framework.QueueSortPlugin.QueuedPod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kube-scheduler's PrioritySort: priority descending (none = 0), then arrival. */
class PrioritySortTest {
    private static QueuedPod pod(String name, Integer priority, long arrival) {
        return new QueuedPod(new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withPriority(priority)
                .endSpec().build(), arrival);
    }

    @Test
    void priorityThenArrival() {
        List<QueuedPod> pods = new ArrayList<>(List.of(pod("late-high", 9000, 5), pod("none", null, 0), pod("low", -1, 1),
                pod("early-high", 9000, 2), pod("mid", 5000, 3)));
        pods.sort(new PrioritySort()::compare);
        assertEquals(List.of("early-high", "late-high", "mid", "none", "low"),
                pods.stream().map(p -> p.pod().getMetadata().getName()).toList());
    }
}
