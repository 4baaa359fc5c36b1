package io.colocation.kube.client;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.function.Consumer;

/** Informer handlers for the common shape: an object added or changed is one event, an object deleted another. */
public final class Handlers {
    private Handlers() {
    }

    /** {@code changed} hears of each object added or updated (its new version), {@code deleted} of each one deleted. */
    public static <T> ResourceEventHandler<T> changedOrDeleted(Consumer<T> changed, Consumer<T> deleted) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                changed.accept(obj);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                changed.accept(newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                deleted.accept(obj);
            }
        };
    }
}
