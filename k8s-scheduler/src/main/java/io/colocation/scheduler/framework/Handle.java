package io.colocation.scheduler.framework;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Collection;
import java.util.function.Function;

/**
 * What the running scheduler gives plugins that act on the cluster (kube-scheduler's framework handle): its client
 * and write rate, indexes over its informer's pods, PodGroups, and the pods waiting at Permit. {@code explain} builds profiles
 * without one: it runs filters and scores only.
 */
public interface Handle {
    KubernetesClient client();

    /** Waits for the client's next write (the configured QPS and burst); false if interrupted. */
    boolean writeToken();

    /**
     * An index over the scheduler's pods, registered while the profile is built (before the scheduler starts), as
     * kube-scheduler's plugins add indexers to its shared informer: {@code keyOf} names a pod's key (null: not
     * indexed), and the answer finds the pods of one key without walking them all.
     */
    PodIndex podIndex(String name, Function<Pod, String> keyOf);

    /** The pods of one key of a {@link #podIndex}, as the informer has them now. */
    @FunctionalInterface
    interface PodIndex {
        Collection<Pod> pods(String key);
    }

    /** Whether the pod is assumed onto a node by this scheduler and not yet seen bound. */
    boolean assumed(String podKey);

    /** A PodGroup ({@code scheduling.sigs.k8s.io/v1alpha1}); null when absent or when its CRD is not installed. */
    GenericKubernetesResource podGroup(String namespace, String name);

    WaitingPods waitingPods();

    /**
     * Tells {@code listener} of every pod the scheduler's informer adds, changes or deletes (registered while the
     * profile is built, before the scheduler starts), as kube-scheduler's plugins add event handlers to its informer.
     */
    void watchPods(PodListener listener);

    /** What a plugin hears of the informer's pods. */
    interface PodListener {
        void changed(Pod pod);

        void gone(Pod pod);
    }

    /**
     * The ElasticQuota objects ({@code scheduling.sigs.k8s.io/v1alpha1}); asking for them, while the profile is built,
     * makes the scheduler watch them. Empty when the CRD is not installed.
     */
    ElasticQuotas elasticQuotas();

    /**
     * The ElasticQuota objects as the scheduler has them now, each the same object until it changes (as an informer's
     * store holds them); {@link #version} changes whenever they do.
     */
    interface ElasticQuotas {
        long version();

        Collection<GenericKubernetesResource> objects();
    }
}
