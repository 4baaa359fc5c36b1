package io.colocation.scheduler.service;

import io.colocation.kube.client.PodEvents;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the Events a user reads with {@code kubectl describe pod} ({@code Scheduled}, {@code FailedScheduling}) off
 * the scheduling path, at their own write rate, as kube-scheduler's event broadcaster does with its own client: a
 * slow Event never delays a binding. At most {@value #BACKLOG} wait; beyond that an Event is dropped and counted.
 */
final class EventRecorder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
    static final int BACKLOG = 1000;

    private final KubernetesClient client;
    private final String schedulerName;
    private final Clock clock;
    private final WriteRate rate;
    private final AtomicLong dropped = new AtomicLong();
    private final ThreadPoolExecutor writer;

    EventRecorder(KubernetesClient client, String schedulerName, WriteRate rate, Clock clock) {
        this.client = client;
        this.schedulerName = schedulerName;
        this.rate = rate;
        this.clock = clock;
        this.writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(BACKLOG), r -> {
            Thread t = new Thread(r, "k8s-scheduler-events");
            t.setDaemon(true);
            return t;
        }, (r, pool) -> {
            if (dropped.incrementAndGet() % BACKLOG == 1) {
                LOG.warn("{} Events waiting to be written: dropping Events ({} so far)", BACKLOG, dropped.get());
            }
        });
    }

    void scheduled(Pod pod, String node) {
        record(pod, "Normal", "Scheduled", "Successfully assigned " + pod.getMetadata().getNamespace() + "/"
                + pod.getMetadata().getName() + " to " + node);
    }

    void failed(Pod pod, String message) {
        record(pod, "Warning", "FailedScheduling", message);
    }

    long dropped() {
        return dropped.get();
    }

    private void record(Pod pod, String type, String reason, String message) {
        var at = clock.instant();
        writer.execute(() -> {
            if (!rate.acquire()) {
                return;
            }
            try {
                PodEvents.record(client, pod, type, reason, message, schedulerName, null, at);
            } catch (KubernetesClientException e) {
                LOG.warn("cannot write the {} Event of pod {}/{}: {}", reason, pod.getMetadata().getNamespace(),
                        pod.getMetadata().getName(), e.getMessage());
            }
        });
    }

    /** Writes what is waiting for up to 5 s, then stops. */
    @Override
    public void close() {
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
}
