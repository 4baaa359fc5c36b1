package io.colocation.broker.kube;

import io.colocation.broker.calculation.Resources;
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

    public static Resources of(Pod pod, String where) throws InvalidInputException {
        if (pod.getSpec() == null) {
            return Resources.ZERO;
        }
        Resources sum = Resources.ZERO;
        List<Container> containers = pod.getSpec().getContainers();
        for (int i = 0; i < containers.size(); i++) {
            sum = sum.plus(request(containers.get(i), where + "spec.containers[" + i + "]"));
        }
        Resources sidecars = Resources.ZERO;
        Resources initMax = Resources.ZERO;
        List<Container> init = pod.getSpec().getInitContainers();
        for (int i = 0; i < init.size(); i++) {
            Container c = init.get(i);
            Resources r = request(c, where + "spec.initContainers[" + i + "]");
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
            total = total.plus(ResourceLists.cpuMemory(overhead, where + "spec.overhead"));
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

    private static Resources request(Container c, String where) throws InvalidInputException {
        return ResourceLists.cpuMemory(defaultedRequests(c), where + ".resources.requests");
    }
}
