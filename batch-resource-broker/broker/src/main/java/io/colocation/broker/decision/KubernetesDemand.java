package io.colocation.broker.decision;

import io.colocation.api.InvalidInputException;
import io.colocation.model.Resources;
import io.colocation.model.pod.PodPhases;
import io.colocation.model.pod.PodRequests;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kubernetes' pending demand for Batch: the batch requests of pods not bound yet that have not ended
 * ({@link PodPhases#ended}). A pod whose request cannot be read is not counted and is named with why.
 */
public record KubernetesDemand(Resources total, Map<String, String> refused) {

    public static KubernetesDemand of(List<Pod> unboundPods) {
        Resources sum = Resources.ZERO;
        Map<String, String> refused = new TreeMap<>();
        for (Pod pod : unboundPods) {
            if (PodPhases.ended(pod)) {
                continue;
            }
            String key = "Pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
            try {
                sum = sum.plus(PodRequests.batch(pod, key + ": "));
            } catch (InvalidInputException e) {
                refused.put(key, "pending pod not counted in Kubernetes' demand: " + e.getMessage());
            }
        }
        return new KubernetesDemand(sum, Map.copyOf(refused));
    }
}
