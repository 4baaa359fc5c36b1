package io.colocation.kube.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.testsupport.Await;
import io.colocation.testsupport.ManualClock;
import io.fabric8.kubernetes.api.model.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Repeats become counts on one Event, each object has its own rate, and nothing is written twice. */
class EventRecorderTest {
    private static final EventRecorder.Involved POD = new EventRecorder.Involved("v1", "Pod", "batch", "spark-exec-1", "uid-1");

    /** What reached the API server. */
    private static final class Sink implements EventRecorder.Sink {
        final List<Event> created = new CopyOnWriteArrayList<>();
        final List<String> patches = new CopyOnWriteArrayList<>();
        volatile boolean gone;

        @Override
        public void create(Event event) {
            created.add(event);
        }

        @Override
        public boolean patch(String namespace, String name, int count, String lastTimestamp, String message) {
            patches.add(name + " count=" + count + " last=" + lastTimestamp + " message=" + message);
            return !gone;
        }
    }

    @Test
    void repeatsAreCountedOnOneEventAndWrittenAtMostEveryPatchInterval() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-24T08:00:00Z"));
        Sink sink = new Sink();
        try (EventRecorder r = new EventRecorder(sink, "koord-scheduler", clock, () -> true)) {
            String message = "0/3 nodes are available: 3 Insufficient kubernetes.io/batch-cpu.";
            r.warning(POD, "FailedScheduling", message, null);
            // The create is written off the caller's thread: repeats recorded before it is written go into the created
            // Event's count, so wait for it to make the count of the patch below certain.
            Await.until(Duration.ofSeconds(5), () -> sink.created.size() == 1);
            for (int i = 1; i < 100; i++) {
                clock.advance(Duration.ofMillis(100));
                r.warning(POD, "FailedScheduling", message, null);
            }
            assertEquals(1, sink.created.size(), "repeats create nothing");
            Event e = sink.created.get(0);
            assertEquals(1, e.getCount());
            assertEquals("batch", e.getMetadata().getNamespace());
            assertEquals("spark-exec-1", e.getInvolvedObject().getName());
            assertEquals("koord-scheduler", e.getSource().getComponent());
            r.flush();
            assertEquals(List.of(), sink.patches, "not before " + EventRecorder.PATCH_EVERY);
            clock.advance(EventRecorder.PATCH_EVERY);
            r.flush();
            assertEquals(1, sink.patches.size());
            assertTrue(sink.patches.get(0).startsWith(e.getMetadata().getName() + " count=100 "),
                    sink.patches.toString());
            r.flush();
            assertEquals(1, sink.patches.size(), "nothing new, nothing written");
            assertEquals(Map.of("created", 1L, "patched", 1L, "dropped", 0L), r.counts());
        }
    }

    @Test
    void aNewMessageIsANewEventAndEachObjectHasItsOwnRate() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-24T08:00:00Z"));
        Sink sink = new Sink();
        try (EventRecorder r = new EventRecorder(sink, "koordlet", clock, () -> true)) {
            for (int i = 0; i < 30; i++) {
                r.warning(POD, "Reason" + i, "attempt", null);
            }
            EventRecorder.Involved other = new EventRecorder.Involved("v1", "Pod", "batch", "spark-exec-2", "uid-2");
            r.warning(other, "Reason0", "attempt", null);
            Await.until(Duration.ofSeconds(5), () -> sink.created.size() == EventRecorder.SPAM_BURST + 1);
            assertEquals(30L - EventRecorder.SPAM_BURST, r.counts().get("dropped"), "over the first pod's burst");
            clock.advance(EventRecorder.SPAM_REFILL);
            r.warning(POD, "Reason30", "attempt", null);
            Await.until(Duration.ofSeconds(5), () -> sink.created.size() == EventRecorder.SPAM_BURST + 2);
        }
    }

    @Test
    void similarEventsWithChangingMessagesAreCombinedIntoOne() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-24T08:00:00Z"));
        Sink sink = new Sink();
        try (EventRecorder r = new EventRecorder(sink, "koord-scheduler", clock, () -> true)) {
            for (int i = 1; i <= 40; i++) {
                r.warning(POD, "FailedScheduling", "0/" + (100 + i) + " nodes are available.", null);
                if (i == EventRecorder.SIMILAR_MAX) {
                    int created = EventRecorder.SIMILAR_MAX;
                    Await.until(Duration.ofSeconds(5), () -> sink.created.size() == created);
                }
            }
            List<String> messages = sink.created.stream().map(Event::getMessage).toList();
            assertEquals(EventRecorder.SIMILAR_MAX, messages.size(), "nine distinct messages, then one combined Event: " + messages);
            assertEquals("0/109 nodes are available.", messages.get(8));
            assertEquals("(combined from similar events): 0/110 nodes are available.", messages.get(9));
            clock.advance(EventRecorder.PATCH_EVERY);
            r.flush();
            assertEquals(List.of(sink.created.get(9).getMetadata().getName() + " count=31 last=2026-11-24T08:00:00Z"
                    + " message=(combined from similar events): 0/140 nodes are available."), sink.patches);
            r.warning(other(), "FailedScheduling", "0/1 nodes are available.", null);
            Await.until(Duration.ofSeconds(5), () -> sink.created.size() == EventRecorder.SIMILAR_MAX + 1);
            assertEquals("0/1 nodes are available.", sink.created.get(EventRecorder.SIMILAR_MAX).getMessage(), "another pod's are its own");
            clock.advance(EventRecorder.SERIES_WINDOW.plusSeconds(1));
            r.warning(POD, "FailedScheduling", "0/3 nodes are available.", null);
            Await.until(Duration.ofSeconds(5), () -> sink.created.size() == EventRecorder.SIMILAR_MAX + 2);
            assertEquals("0/3 nodes are available.", sink.created.get(EventRecorder.SIMILAR_MAX + 1).getMessage(),
                    "after a quiet window, messages are single again");
        }
    }

    private static EventRecorder.Involved other() {
        return new EventRecorder.Involved("v1", "Pod", "batch", "spark-exec-2", "uid-2");
    }

    @Test
    void aRepeatAfterTheWindowOrAfterTheEventExpiredStartsANewEvent() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-24T08:00:00Z"));
        Sink sink = new Sink();
        try (EventRecorder r = new EventRecorder(sink, "colocation-broker", clock, () -> true)) {
            r.warning(POD, "BatchInputInvalid", "m", null);
            clock.advance(EventRecorder.SERIES_WINDOW.plusSeconds(1));
            r.warning(POD, "BatchInputInvalid", "m", null);
            Await.until(Duration.ofSeconds(5), () -> sink.created.size() == 2);
            r.warning(POD, "BatchInputInvalid", "m", null);
            sink.gone = true;
            clock.advance(EventRecorder.PATCH_EVERY);
            r.flush();
            assertEquals(1, sink.patches.size());
            r.warning(POD, "BatchInputInvalid", "m", null);
            Await.until(Duration.ofSeconds(5), () -> sink.created.size() == 3);
        }
    }
}
