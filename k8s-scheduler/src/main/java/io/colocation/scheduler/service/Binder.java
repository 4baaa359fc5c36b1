package io.colocation.scheduler.service;

import io.colocation.kube.client.PodEvents;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the scheduler's decisions: the {@code pods/binding} subresource, and the Events a user reads with
 * {@code kubectl describe pod} ({@code Scheduled}, {@code FailedScheduling}); at most {@code qps} writes a second.
 */
final class Binder {
    private static final Logger LOG = LoggerFactory.getLogger(Binder.class);

    private final KubernetesClient client;
    private final String schedulerName;
    private final Clock clock;
    private final long nanosPerWrite;
    private long nextWrite;

    Binder(KubernetesClient client, String schedulerName, double qps, Clock clock) {
        this.client = client;
        this.schedulerName = schedulerName;
        this.clock = clock;
        this.nanosPerWrite = (long) (1e9 / qps);
        this.nextWrite = System.nanoTime();
    }

    /** Binds the pod; returns why not, empty when bound. */
    Optional<String> bind(Pod pod, String node) {
        pace();
        try {
            client.bindings().inNamespace(pod.getMetadata().getNamespace()).resource(new BindingBuilder().withNewMetadata()
                    .withName(pod.getMetadata().getName()).withNamespace(pod.getMetadata().getNamespace())
                    .withUid(pod.getMetadata().getUid()).endMetadata()
                    .withTarget(new ObjectReferenceBuilder().withKind("Node").withApiVersion("v1").withName(node).build()).build())
                    .create();
        } catch (KubernetesClientException e) {
            return Optional.of(e.getCode() + " " + e.getMessage());
        }
        event(pod, "Normal", "Scheduled", "Successfully assigned " + pod.getMetadata().getNamespace() + "/"
                + pod.getMetadata().getName() + " to " + node);
        return Optional.empty();
    }

    void failed(Pod pod, String message) {
        event(pod, "Warning", "FailedScheduling", message);
    }

    private void event(Pod pod, String type, String reason, String message) {
        pace();
        try {
            PodEvents.record(client, pod, type, reason, message, schedulerName, null, clock.instant());
        } catch (KubernetesClientException e) {
            LOG.warn("cannot write the {} Event of pod {}/{}: {}", reason, pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(), e.getMessage());
        }
    }

    /** Client-side rate limit of the writes (a token every 1/qps s). */
    private synchronized void pace() {
        long now = System.nanoTime();
        if (nextWrite > now) {
            try {
                Thread.sleep((nextWrite - now) / 1_000_000, (int) ((nextWrite - now) % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        nextWrite = Math.max(now, nextWrite) + nanosPerWrite;
    }
}
