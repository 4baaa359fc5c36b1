package io.colocation.model.pod;

import io.colocation.model.ResourceLists;
import io.colocation.api.InvalidInputException;
import io.colocation.model.Resources;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's effective cpu/memory request, as Kubernetes' {@code PodRequests} computes it: the sum over
 * containers; the larger of that and each init container's request (restartable "sidecar" init
 * containers run alongside and add to both); plus {@code spec.overhead}. A container limit without a
 * request counts as the request, as the API server defaults it.
 */
public final class PodRequests {
    private PodRequests() {
    }

    /** The pod's effective cpu/memory request. */
    public static Resources of(Pod pod, String where) throws InvalidInputException {
        return effective(pod, where, ResourceLists::cpuMemory);
    }

    /**
     * The pod's effective {@code kubernetes.io/batch-cpu} (milli-cores, the quantity's value) and
     * {@code kubernetes.io/batch-memory} (bytes) request: what a Batch pod takes from a node's Batch.
     */
    public static Resources batch(Pod pod, String where) throws InvalidInputException {
        return effective(pod, where, ResourceLists::batch);
    }

    @FunctionalInterface
    private interface Reader {
        Resources read(Map<String, Quantity> list, String where) throws InvalidInputException;
    }

    /** Containers, sidecars and init containers combined as the scheduler does, plus the pod overhead. */
    private static Resources effective(Pod pod, String where, Reader reader) throws InvalidInputException {
        if (pod.getSpec() == null) {
            return Resources.ZERO;
        }
        Resources sum = Resources.ZERO;
        List<Container> containers = pod.getSpec().getContainers();
        for (int i = 0; i < containers.size(); i++) {
            sum = sum.plus(reader.read(defaultedRequests(containers.get(i)), where + "spec.containers[" + i + "].resources.requests"));
        }
        Resources sidecars = Resources.ZERO;
        Resources initMax = Resources.ZERO;
        List<Container> init = pod.getSpec().getInitContainers();
        for (int i = 0; i < init.size(); i++) {
            Container c = init.get(i);
            Resources r = reader.read(defaultedRequests(c), where + "spec.initContainers[" + i + "].resources.requests");
            if ("Always".equals(c.getRestartPolicy())) {
                sum = sum.plus(r);
                sidecars = sidecars.plus(r);
                initMax = initMax.max(sidecars);
            } else {
                initMax = initMax.max(r.plus(sidecars));
            }
        }
        Resources total = sum.max(initMax);
        Map<String, Quantity> overhead = pod.getSpec().getOverhead();
        if (overhead != null) {
            total = total.plus(reader.read(overhead, where + "spec.overhead"));
        }
        return total;
    }

    /** A container's requests with each limit standing in for a missing request. */
    static Map<String, Quantity> defaultedRequests(Container c) {
        Map<String, Quantity> requests = new HashMap<>();
        if (c.getResources() != null) {
            if (c.getResources().getLimits() != null) {
                requests.putAll(c.getResources().getLimits());
            }
            if (c.getResources().getRequests() != null) {
                requests.putAll(c.getResources().getRequests());
            }
        }
        return requests;
    }
}
