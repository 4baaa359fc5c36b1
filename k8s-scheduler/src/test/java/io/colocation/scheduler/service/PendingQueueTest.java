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

    @Test
    void anUnschedulablePodWaitsForAChangeThatMayFitItThenForItsBackoff() throws Exception {
        queue.add("ns/a", pod("a", 0));
        queue.add("ns/b", pod("b", 0));
        assertEquals(List.of("ns/a", "ns/b"), drain());
        queue.unschedulable("ns/a", info("a"));
        queue.unschedulable("ns/b", info("b"));
        clock.advance(Duration.ofSeconds(60));
        assertEquals(List.of(), drain(), "past its backoff, but nothing changed");
        assertEquals(2, queue.sizes().get(PendingQueue.Where.UNSCHEDULABLE));
        assertEquals(1, queue.moveUnschedulable(p -> p.key().equals("ns/b")));
        assertEquals(List.of("ns/b"), drain(), "a change that may fit b");

        queue.unschedulable("ns/b", info("b"));
        queue.moveUnschedulable(p -> p.key().equals("ns/b"));
        assertEquals(List.of(), drain(), "moved, but its backoff (2 s, the second attempt) lasts");
        clock.advance(Duration.ofSeconds(2));
        assertEquals(List.of("ns/b"), drain());
        clock.advance(PendingQueue.MAX_UNSCHEDULABLE.minusSeconds(62));
        assertEquals(List.of(), drain());
        clock.advance(Duration.ofSeconds(1));
        assertEquals(List.of("ns/a"), drain(), "after " + PendingQueue.MAX_UNSCHEDULABLE + " whatever happened");
    }

    @Test
    void anUnschedulablePodWhoseSpecChangedIsTriedAgain() throws Exception {
        queue.add("ns/a", pod("a", 0));
        drain();
        queue.unschedulable("ns/a", info("a"));
        clock.advance(Duration.ofSeconds(5));
        Pod statusOnly = pod("a", 0);
        statusOnly.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Pending").build());
        queue.add("ns/a", statusOnly);
        assertEquals(List.of(), drain(), "a new status alone changes nothing");
        queue.add("ns/a", new PodBuilder(pod("a", 0)).editSpec().addToNodeSelector("pool", "batch").endSpec().build());
        assertEquals(List.of("ns/a"), drain(), "a new node selector may fit");
    }

    private static io.colocation.scheduler.framework.PodInfo info(String name) {
        try {
            return io.colocation.scheduler.framework.Snapshots.pod(pod(name, 0), Instant.EPOCH, "Pod ns/" + name + ": ");
        } catch (io.colocation.api.InvalidInputException e) {
            throw new AssertionError(e);
        }
    }
}
