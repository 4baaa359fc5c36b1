package io.colocation.kube.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.helpers.concurrent.Daemons;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one writer of core/v1 Events for every part (what {@code kubectl describe} shows), off the caller's path, with
 * client-go's manners (its EventCorrelator, which kube-scheduler's events go through) so a storm of repeats never floods
 * the API server:
 * <ul>
 * <li>repeats are one Event: the same involved object, type, reason, source and message within {@link #SERIES_WINDOW}
 * raise its {@code count} and {@code lastTimestamp}, written by a patch at most every {@link #PATCH_EVERY}; a new
 * message is a new Event, so a pod's reason shows as soon as it changes;</li>
 * <li>similar Events are combined (client-go's EventAggregator): from the {@value #SIMILAR_MAX}th distinct message for
 * the same object, type, reason and source within {@link #SERIES_WINDOW}, they are one Event whose message is
 * {@code (combined from similar events): } and the latest message, so a pod whose FailedScheduling summary changes
 * each attempt (the node counts do) makes one Event, not one per attempt;</li>
 * <li>each object has its own rate (client-go's spam filter: a burst of {@value #SPAM_BURST} writes, then one per
 * {@link #SPAM_REFILL}); a create over it is dropped and counted, a patch waits;</li>
 * <li>at most {@value #BACKLOG} creates wait to be written, and {@value #MAX_SERIES} series are remembered.</li>
 * </ul>
 */
public final class EventRecorder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Duration SERIES_WINDOW = Duration.ofMinutes(10);
    static final Duration PATCH_EVERY = Duration.ofSeconds(30);
    static final int SPAM_BURST = 25;
    static final Duration SPAM_REFILL = Duration.ofMinutes(5);
    static final int BACKLOG = 1000;
    static final int MAX_SERIES = 4096;
    static final int SIMILAR_MAX = 10;
    static final String COMBINED = "(combined from similar events): ";
    private static final int MAX_MESSAGE = 1024;
    /** Events about cluster-scoped objects live in {@code default}, as the kubelet's and the scheduler's do. */
    static final String CLUSTER_SCOPED_NAMESPACE = "default";

    /** The object an Event is about; {@code namespace} null for cluster-scoped kinds. */
    public record Involved(String apiVersion, String kind, String namespace, String name, String uid) {
        public static Involved of(Pod pod) {
            String ns = pod.getMetadata().getNamespace();
            return new Involved("v1", "Pod", ns == null || ns.isEmpty() ? "default" : ns, pod.getMetadata().getName(),
                    pod.getMetadata().getUid());
        }

        String eventNamespace() {
            return namespace == null ? CLUSTER_SCOPED_NAMESPACE : namespace;
        }
    }

    /** Where Events go: the API server, or a test's list. */
    interface Sink {
        void create(Event event);

        /** false when the Event is gone (expired by the API server's TTL). */
        boolean patch(String namespace, String name, int count, String lastTimestamp, String message);
    }

    /** A series' key: {@code message} null for the combined Event of similar ones. */
    private record Key(Involved about, String type, String reason, String host, String message) {
    }

    /** Similar Events: the same object, type, reason and source, any message. */
    private record SimilarKey(Involved about, String type, String reason, String host) {
    }

    /** The distinct messages of similar Events seen since {@code last} minus the window, up to {@link #SIMILAR_MAX}. */
    private static final class Similar {
        final java.util.Set<String> messages = new java.util.HashSet<>();
        Instant last;
    }

    /** One Event and what was seen of it since its last write. */
    private static final class Series {
        final String name;
        final Instant first;
        String message;
        int count;
        Instant last;
        int written;
        Instant writtenAt;

        Series(String name, Instant now, String message) {
            this.name = name;
            this.first = now;
            this.count = 1;
            this.last = now;
            this.message = message;
        }
    }

    /** A token bucket per object: {@link #SPAM_BURST} at once, one more per {@link #SPAM_REFILL}. */
    private static final class Bucket {
        double tokens = SPAM_BURST;
        Instant at;

        boolean take(Instant now) {
            if (at != null) {
                tokens = Math.min(SPAM_BURST, tokens + (double) Duration.between(at, now).toMillis() / SPAM_REFILL.toMillis());
            }
            at = now;
            if (tokens < 1) {
                return false;
            }
            tokens -= 1;
            return true;
        }
    }

    private final Sink sink;
    private final String component;
    private final Clock clock;
    private final BooleanSupplier writeToken;
    private final Map<Key, Series> series = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Series> eldest) {
            return size() > MAX_SERIES;
        }
    };
    private final Map<Involved, Bucket> buckets = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Involved, Bucket> eldest) {
            return size() > MAX_SERIES;
        }
    };
    private final Map<SimilarKey, Similar> similar = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<SimilarKey, Similar> eldest) {
            return size() > MAX_SERIES;
        }
    };
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong patched = new AtomicLong();
    private final ThreadPoolExecutor writer;
    private final ScheduledThreadPoolExecutor flusher;

    /**
     * @param component  the Events' source ({@code colocation-broker}, the scheduler's name, {@code koordlet})
     * @param writeToken waits for the part's next API write (its QPS and burst); false: skip this write
     */
    public EventRecorder(KubernetesClient client, String component, Clock clock, BooleanSupplier writeToken) {
        this(apiServer(client), component, clock, writeToken);
    }

    EventRecorder(Sink sink, String component, Clock clock, BooleanSupplier writeToken) {
        this.sink = sink;
        this.component = component;
        this.clock = clock;
        this.writeToken = writeToken;
        this.writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(BACKLOG),
                Daemons.named(component + "-events"), (r, pool) -> {
                    if (pool.isShutdown()) {
                        LOG.debug("{}: an Event recorded after close is not written", component);
                    } else if (dropped.incrementAndGet() % BACKLOG == 1) {
                        LOG.warn("{} Events waiting to be written: dropping Events ({} so far)", BACKLOG, dropped.get());
                    }
                });
        this.flusher = new ScheduledThreadPoolExecutor(1, Daemons.named(component + "-events-flush"));
        flusher.scheduleWithFixedDelay(this::flushQuietly, 1, 1, TimeUnit.SECONDS);
    }

    /** A recorder with no rate of its own beyond the per-object one. */
    public EventRecorder(KubernetesClient client, String component) {
        this(client, component, Clock.systemUTC(), () -> true);
    }

    private static Sink apiServer(KubernetesClient client) {
        return new Sink() {
            @Override
            public void create(Event event) {
                client.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create();
            }

            @Override
            public boolean patch(String namespace, String name, int count, String lastTimestamp, String message) {
                try {
                    String patch = JSON.createObjectNode().put("count", count).put("lastTimestamp", lastTimestamp)
                            .put("message", message).toString();
                    Patches.merge(client, new EventBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                            .build(), patch);
                    return true;
                } catch (KubernetesClientException e) {
                    if (e.getCode() == 404) {
                        return false;
                    }
                    throw e;
                }
            }
        };
    }

    public void normal(Involved about, String reason, String message, String host) {
        record(about, "Normal", reason, message, host);
    }

    public void warning(Involved about, String reason, String message, String host) {
        record(about, "Warning", reason, message, host);
    }

    /** Records the Event: a new one is written soon, a repeat is counted on the one written before. */
    public void record(Involved about, String type, String reason, String message, String host) {
        Instant now = clock.instant();
        String text = message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message;
        Series s;
        Key key;
        synchronized (this) {
            boolean combined = combine(new SimilarKey(about, type, reason, host), text, now);
            if (combined) {
                text = COMBINED + text;
            }
            key = new Key(about, type, reason, host, combined ? null : text);
            s = series.get(key);
            if (s != null && Duration.between(s.last, now).compareTo(SERIES_WINDOW) <= 0) {
                s.count++;
                s.last = now;
                s.message = text;
                return; // the flusher writes the new count
            }
            if (!bucket(about).take(now)) {
                dropped.incrementAndGet();
                return;
            }
            s = new Series(about.name() + "." + UUID.randomUUID().toString().substring(0, 8), now, text);
            series.put(key, s);
        }
        Series fresh = s;
        writer.execute(() -> create(key, fresh));
    }

    /** Whether this message joins the combined Event of its similar ones (client-go's EventAggregate). */
    private boolean combine(SimilarKey key, String message, Instant now) {
        Similar seen = similar.computeIfAbsent(key, k -> new Similar());
        if (seen.last != null && Duration.between(seen.last, now).compareTo(SERIES_WINDOW) > 0) {
            seen.messages.clear();
        }
        seen.last = now;
        if (seen.messages.size() < SIMILAR_MAX) { // past it every message is combined: no need to keep more of them
            seen.messages.add(message);
        }
        return seen.messages.size() >= SIMILAR_MAX;
    }

    private Bucket bucket(Involved about) {
        return buckets.computeIfAbsent(about, a -> new Bucket());
    }

    private void create(Key key, Series s) {
        if (!writeToken.getAsBoolean()) {
            return;
        }
        int count;
        String last;
        String message;
        synchronized (this) {
            count = s.count;
            last = s.last.toString();
            message = s.message;
            s.written = count;
            s.writtenAt = clock.instant();
        }
        Involved about = key.about();
        Event event = new EventBuilder()
                .withNewMetadata().withName(s.name).withNamespace(about.eventNamespace()).endMetadata()
                .withNewInvolvedObject().withApiVersion(about.apiVersion()).withKind(about.kind()).withNamespace(about.namespace())
                .withName(about.name()).withUid(about.uid()).endInvolvedObject()
                .withType(key.type()).withReason(key.reason()).withMessage(message)
                .withNewSource().withComponent(component).withHost(key.host()).endSource()
                .withFirstTimestamp(s.first.toString()).withLastTimestamp(last).withCount(count).build();
        try {
            sink.create(event);
            created.incrementAndGet();
        } catch (KubernetesClientException e) {
            LOG.warn("cannot write the {} Event of {} {}: {}", key.reason(), about.kind(), about.name(), e.getMessage());
        }
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.warn("writing Event counts failed; trying again in a second", e);
        }
    }

    /** Writes the counts of the series that grew since their last write, each at most every {@link #PATCH_EVERY}. */
    void flush() {
        Instant now = clock.instant();
        List<Map.Entry<Key, Series>> due = new ArrayList<>();
        synchronized (this) {
            for (Map.Entry<Key, Series> e : series.entrySet()) {
                Series s = e.getValue();
                if (s.writtenAt != null && s.count > s.written && !now.isBefore(s.writtenAt.plus(PATCH_EVERY))) {
                    due.add(e);
                }
            }
        }
        for (Map.Entry<Key, Series> e : due) {
            Series s = e.getValue();
            int count;
            String last;
            String message;
            synchronized (this) {
                if (!bucket(e.getKey().about()).take(now)) {
                    continue; // over this object's rate: the count waits
                }
                count = s.count;
                last = s.last.toString();
                message = s.message;
                s.written = count;
                s.writtenAt = now;
            }
            if (!writeToken.getAsBoolean()) {
                return;
            }
            try {
                if (sink.patch(e.getKey().about().eventNamespace(), s.name, count, last, message)) {
                    patched.incrementAndGet();
                } else {
                    synchronized (this) {
                        series.remove(e.getKey()); // expired: the next repeat starts a new Event
                    }
                }
            } catch (KubernetesClientException ex) {
                LOG.warn("cannot update the count of Event {}: {}", s.name, ex.getMessage());
            }
        }
    }

    /** Events created, counts patched, and Events dropped (over an object's rate or the backlog). */
    public Map<String, Long> counts() {
        return Map.of("created", created.get(), "patched", patched.get(), "dropped", dropped.get());
    }

    /** Writes what waits (creates and counts) for up to 5 s, then stops. */
    @Override
    public void close() {
        flusher.shutdownNow();
        writer.shutdown();
        try {
            if (!writer.awaitTermination(5, TimeUnit.SECONDS)) {
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            writer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "EventRecorder[" + component + ", " + Objects.toString(counts()) + "]";
    }
}
