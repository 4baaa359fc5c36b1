package io.colocation.simulator.measure;

import io.colocation.api.KoordinatorKeys;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How long a node's new usage takes to become its published Batch: from the koordlet's latest NodeMetric report to the
 * change of the node's {@code originExtendedAllocatable} that followed it, in milliseconds of the engine's clock (the real
 * engine's parts run on wall time; the fast engine's on its virtual clock). A report that changes nothing published is
 * not counted; a publication without a report since the last one (a pod's change) neither.
 */
public final class PublishLag {
    private final Map<String, Long> reportedAt = new ConcurrentHashMap<>();
    private final Durations lagsMillis = new Durations();
    private final java.util.function.LongSupplier millis;

    /** On wall time. */
    public PublishLag() {
        this(() -> System.nanoTime() / 1_000_000);
    }

    public PublishLag(java.util.function.LongSupplier millis) {
        this.millis = millis;
    }

    /** A koordlet reported its node's usage now. */
    public void reported(String node) {
        reportedAt.put(node, millis.getAsLong());
    }

    /** The node's published Batch changed now. */
    public void published(String node) {
        Long at = reportedAt.remove(node);
        if (at != null) {
            lagsMillis.add(millis.getAsLong() - at);
        }
    }

    public Durations lagsMillis() {
        return lagsMillis;
    }

    /** Watches the nodes' origin annotation: each change is a publication of the node's Batch. Closing stops the watch. */
    public AutoCloseable watchPublications(KubernetesClient client) {
        Map<String, String> last = new ConcurrentHashMap<>();
        var informer = client.nodes().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node) {
                onUpdate(null, node);
            }

            @Override
            public void onUpdate(Node old, Node node) {
                Map<String, String> a = node.getMetadata().getAnnotations();
                String origin = a == null ? null : a.get(KoordinatorKeys.ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE);
                if (origin != null && !origin.equals(last.put(node.getMetadata().getName(), origin))) {
                    published(node.getMetadata().getName());
                }
            }

            @Override
            public void onDelete(Node node, boolean unknown) {
                last.remove(node.getMetadata().getName());
            }
        }, 0);
        return informer::close;
    }
}
