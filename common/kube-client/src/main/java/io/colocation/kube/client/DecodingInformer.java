package io.colocation.kube.client;

import io.colocation.api.InvalidInputException;
import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.model.TypedObjects;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A watch on a custom resource whose objects are decoded into the typed model one by one. A typed fabric8 informer
 * decodes whole lists and watch events: one object with a wrongly typed field (a CRD's schema accepts what it leaves
 * open) fails them all, and the watch stops for good. Here the watch carries the objects as they are, and each is
 * decoded on its own when it changes: one that cannot be decoded is named once in the log, kept as unreadable with the
 * reason ({@link Decoded#error()}), and never stops the watch or hides the others.
 */
public final class DecodingInformer<T extends HasMetadata> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DecodingInformer.class);

    /** An object as last seen: its value, or why it cannot be read. */
    public record Decoded<T>(String name, String resourceVersion, T value, String error) {
        public boolean readable() {
            return value != null;
        }
    }

    /** Hears of every object added, changed (decoded or not) or deleted ({@code now} null). */
    @FunctionalInterface
    public interface Listener<T> {
        void changed(String key, Decoded<T> now);
    }

    private final Class<T> type;
    private final SharedIndexInformer<GenericKubernetesResource> informer;
    private final Map<String, Decoded<T>> objects = new ConcurrentHashMap<>();
    private final List<Listener<T>> listeners = new CopyOnWriteArrayList<>();
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);

    private DecodingInformer(Class<T> type, SharedIndexInformer<GenericKubernetesResource> informer) {
        this.type = type;
        this.informer = informer;
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource obj) {
                update(obj);
            }

            @Override
            public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                update(newObj);
            }

            @Override
            public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
                String key = key(obj);
                objects.remove(key);
                warnings.resolved(subject(key));
                listeners.forEach(l -> l.changed(key, null));
            }
        });
    }

    /** Every object of {@code type} (its group, version and plural from the class's annotations). Not started. */
    public static <T extends HasMetadata> DecodingInformer<T> all(KubernetesClient client, Class<T> type) {
        return new DecodingInformer<>(type, client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(type))
                .runnableInformer(0).itemStore(TrimmingItemStore.trimmingMetadata()));
    }

    /** The one object of {@code type} named {@code name} (a node's own NodeMetric, say). Not started. */
    public static <T extends HasMetadata> DecodingInformer<T> named(KubernetesClient client, Class<T> type, String name) {
        return new DecodingInformer<>(type, client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(type))
                .withField("metadata.name", name).runnableInformer(0)
                .itemStore(TrimmingItemStore.trimmingMetadata()));
    }

    public DecodingInformer<T> addListener(Listener<T> listener) {
        listeners.add(listener);
        return this;
    }

    /** Starts the watch; completes when the first list is in. */
    public CompletionStage<Void> start() {
        return informer.start();
    }

    private void update(GenericKubernetesResource raw) {
        try {
            decode(raw);
        } finally {
            // The informer's store keeps the raw object only to tell changes apart (name and resourceVersion): its
            // body, once decoded, would double what each object holds.
            raw.getAdditionalProperties().clear();
        }
    }

    private void decode(GenericKubernetesResource raw) {
        String key = key(raw);
        String version = raw.getMetadata().getResourceVersion();
        Decoded<T> before = objects.get(key);
        if (before != null && version != null && version.equals(before.resourceVersion())) {
            return;
        }
        String name = raw.getMetadata().getName();
        Decoded<T> now;
        try {
            now = new Decoded<>(name, version, TypedObjects.decode(raw, type, type.getSimpleName() + " " + key), null);
            warnings.resolved(subject(key));
        } catch (InvalidInputException | RuntimeException e) {
            now = new Decoded<>(name, version, null, e.getMessage());
            warnings.warn(subject(key), "cannot be read (resourceVersion " + version + "), it is skipped until it changes: "
                    + e.getMessage());
        }
        objects.put(key, now);
        Decoded<T> changed = now;
        listeners.forEach(l -> l.changed(key, changed));
    }

    private String subject(String key) {
        return type.getSimpleName() + " " + key;
    }

    private static String key(GenericKubernetesResource raw) {
        String ns = raw.getMetadata().getNamespace();
        return ns == null || ns.isEmpty() ? raw.getMetadata().getName() : ns + "/" + raw.getMetadata().getName();
    }

    /** The object under {@code key} ({@code name}, or {@code namespace/name}), readable or not. */
    public Optional<Decoded<T>> get(String key) {
        return Optional.ofNullable(objects.get(key));
    }

    /** Every object that could be read. */
    public List<T> values() {
        List<T> out = new ArrayList<>(objects.size());
        objects.values().forEach(d -> {
            if (d.value() != null) {
                out.add(d.value());
            }
        });
        return out;
    }

    /** The objects that cannot be read now, and why. */
    public Map<String, String> unreadable() {
        Map<String, String> out = new TreeMap<>();
        objects.forEach((k, d) -> {
            if (d.value() == null) {
                out.put(k, d.error());
            }
        });
        return out;
    }

    public boolean isWatching() {
        return informer.isWatching();
    }

    @Override
    public void close() {
        informer.close();
    }
}
