package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.scheduler.plugins.queuesort.PrioritySort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.colocation.testsupport.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pending queue: priority then arrival order, backoff that doubles, a taken pod hidden until it is settled. */
class PendingQueueTest {
    /** A clock the test moves. */
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-23T08:00:00Z"));
    private final PendingQueue queue = new PendingQueue(new PrioritySort(), clock, Duration.ofSeconds(1), Duration.ofSeconds(10));

    private static Pod pod(String name, Integer priority) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata().withNewSpec()
                .withPriority(priority).endSpec().build();
    }

    private List<String> drain() throws InterruptedException {
        List<String> out = new ArrayList<>();
        for (var next = queue.take(Duration.ZERO); next.isPresent(); next = queue.take(Duration.ZERO)) {
            out.add(next.get().getKey());
        }
        return out;
    }

    @Test
    void highestPriorityFirstThenArrivalOrder() throws Exception {
        queue.add("ns/a", pod("a", 5000));
        queue.add("ns/b", pod("b", 9000));
        queue.add("ns/c", pod("c", 5000));
        queue.add("ns/d", pod("d", null));
        queue.add("ns/e", pod("e", 9000));
        assertEquals(List.of("ns/b", "ns/e", "ns/a", "ns/c", "ns/d"), drain());
        assertEquals(5, queue.size(), "taken pods stay until bound or gone");
    }

    @Test
    void aNewerVersionKeepsItsPlaceAndANewPriorityMovesIt() throws Exception {
        queue.add("ns/a", pod("a", 1));
        queue.add("ns/b", pod("b", 1));
        queue.add("ns/a", pod("a", 1));
        queue.add("ns/c", pod("c", 1));
        queue.add("ns/c", pod("c", 2));
        assertEquals(List.of("ns/c", "ns/a", "ns/b"), drain());
    }

    @Test
    void aTakenPodIsHiddenUntilBackedOffAndTheBackoffDoubles() throws Exception {
        queue.add("ns/a", pod("a", 0));
        assertEquals(List.of("ns/a"), drain());
        queue.add("ns/a", pod("a", 0));
        assertEquals(List.of(), drain(), "a newer version of a pod being bound does not bring it back");

        queue.backoff("ns/a");
        assertEquals(List.of(), drain());
        clock.advance(Duration.ofMillis(1000));
        assertEquals(List.of("ns/a"), drain(), "after 1 s");
        queue.backoff("ns/a");
        clock.advance(Duration.ofMillis(1999));
        assertEquals(List.of(), drain());
        clock.advance(Duration.ofMillis(1));
        assertEquals(List.of("ns/a"), drain(), "after 2 s");
        for (int i = 0; i < 10; i++) {
            queue.backoff("ns/a");
            clock.advance(Duration.ofSeconds(10));
            assertEquals(List.of("ns/a"), drain(), "at most 10 s");
        }
    }

    @Test
    void removedPodsAreGoneWhereverTheyWait() throws Exception {
        queue.add("ns/a", pod("a", 0));
        queue.add("ns/b", pod("b", 0));
        queue.add("ns/c", pod("c", 0));
        queue.take(Duration.ZERO);
        queue.backoff("ns/a");
        queue.remove("ns/a");
        queue.remove("ns/b");
        clock.advance(Duration.ofSeconds(60));
        assertEquals(List.of("ns/c"), drain());
        queue.remove("ns/c");
        assertEquals(0, queue.size());
        assertTrue(queue.take(Duration.ofMillis(20)).isEmpty(), "waits, then nothing");
    }
}
