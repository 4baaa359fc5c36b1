package io.colocation.kube.client;

import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;

/**
 * The one way every part evicts a pod: the Eviction API, so PodDisruptionBudgets apply (policy/v1, falling back to
 * v1beta1 on servers before Kubernetes 1.22, which answer 404 or 400 naming policy/v1).
 */
public final class Evictions {
    private Evictions() {
    }

    /** Empty when the pod is evicted; otherwise why not (a PodDisruptionBudget refused: 429; or the API server's error). */
    public static Optional<String> evict(KubernetesClient client, String namespace, String name) {
        try {
            boolean done;
            try {
                done = client.pods().inNamespace(namespace).withName(name).evict(new EvictionBuilder()
                        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata().build());
            } catch (KubernetesClientException e) {
                if (e.getCode() != 404 && (e.getCode() != 400 || !String.valueOf(e.getMessage()).contains("policy/v1"))) {
                    throw e;
                }
                done = client.pods().inNamespace(namespace).withName(name).evict(); // policy/v1beta1
            }
            return done ? Optional.empty() : Optional.of("the Eviction API refused (a PodDisruptionBudget?)");
        } catch (KubernetesClientException e) {
            return Optional.of("eviction failed: " + e.getMessage());
        }
    }
}
