package io.colocation.quota;

import io.colocation.api.InvalidInputException;
import io.colocation.model.pod.PodRequests;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/**
 * What a pod brings to its quota: its key, what resolves its quota (namespace, labels), its requests in quota units
 * (cpu in milli-cores, the rest integer values), and whether it holds them on a node (bound or assumed), which makes
 * them used as well as requested.
 */
public record QuotaPod(String key, String namespace, Map<String, String> labels, ResourceAmounts request, boolean assigned) {
    public QuotaPod {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /**
     * A live pod as its quota counts it: its requests as the scheduler reads them.
     *
     * @throws InvalidInputException naming the pod: a request that is no quantity
     */
    public static QuotaPod of(String key, Pod pod, boolean assigned) throws InvalidInputException {
        return new QuotaPod(key, pod.getMetadata().getNamespace(), pod.getMetadata().getLabels(),
                ResourceAmounts.of(PodRequests.requests(pod, "Pod " + key + ": ")), assigned);
    }

    public boolean nonPreemptible() {
        return QuotaDirectory.nonPreemptible(labels);
    }

    public QuotaPod assigned(boolean onNode) {
        return new QuotaPod(key, namespace, labels, request, onNode);
    }
}
