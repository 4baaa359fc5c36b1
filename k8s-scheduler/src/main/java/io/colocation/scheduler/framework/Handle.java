package io.colocation.scheduler.framework;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Collection;

/**
 * What the running scheduler gives plugins that act on the cluster (kube-scheduler's framework handle): its client
 * and write rate, its informer's pods, PodGroups, and the pods waiting at Permit. {@code explain} builds profiles
 * without one: it runs filters and scores only.
 */
public interface Handle {
    KubernetesClient client();

    /** Waits for the client's next write (the configured QPS and burst); false if interrupted. */
    boolean writeToken();

    /** Every pod the scheduler's informer has. */
    Collection<Pod> pods();

    /** Whether the pod is assumed onto a node by this scheduler and not yet seen bound. */
    boolean assumed(String podKey);

    /** A PodGroup ({@code scheduling.sigs.k8s.io/v1alpha1}); null when absent or when its CRD is not installed. */
    GenericKubernetesResource podGroup(String namespace, String name);

    WaitingPods waitingPods();
}
