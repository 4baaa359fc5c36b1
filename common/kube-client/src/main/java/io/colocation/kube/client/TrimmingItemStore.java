package io.colocation.kube.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * An informer's store that keeps each object without what its reader never looks at, trimmed in place as the object
 * arrives, before indexers and event handlers see it (client-go's informer transform). Every trim drops the managed
 * fields and kubectl's last-applied annotation: on Nodes the managed fields are nested maps of every status field,
 * and at 10,000 nodes they were most of the k8s-scheduler's heap (800,000 LinkedHashMaps, JFR and jcmd).
 */
public final class TrimmingItemStore<V extends HasMetadata> implements ItemStore<V> {
    public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private final BasicItemStore<V> store = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
    private final Consumer<V> trim;

    private TrimmingItemStore(Consumer<V> trim) {
        this.trim = trim;
    }

    /** Keeps the whole object but its managed fields and last-applied annotation. */
    public static <V extends HasMetadata> TrimmingItemStore<V> trimmingMetadata() {
        return new TrimmingItemStore<>(o -> { });
    }

    /** Drops the managed fields, the last-applied annotation and what {@code trim} removes of the object in place. */
    public static <V extends HasMetadata> TrimmingItemStore<V> trimming(Consumer<V> trim) {
        return new TrimmingItemStore<>(trim);
    }

    /** {@code object} without its managed fields and last-applied annotation (changed in place). */
    private static <V extends HasMetadata> V trimMetadata(V object) {
        if (object.getMetadata() != null) {
            object.getMetadata().setManagedFields(null);
            if (object.getMetadata().getAnnotations() != null) {
                object.getMetadata().getAnnotations().remove(LAST_APPLIED);
            }
        }
        return object;
    }

    @Override
    public String getKey(V object) {
        return store.getKey(object);
    }

    @Override
    public V put(String key, V object) {
        trim.accept(trimMetadata(object));
        return store.put(key, object);
    }

    @Override
    public V remove(String key) {
        return store.remove(key);
    }

    @Override
    public Stream<String> keySet() {
        return store.keySet();
    }

    @Override
    public Stream<V> values() {
        return store.values();
    }

    @Override
    public int size() {
        return store.size();
    }

    @Override
    public V get(String key) {
        return store.get(key);
    }
}
