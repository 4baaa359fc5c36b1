package io.colocation.model.pod;

import io.colocation.api.InvalidInputException;
import io.colocation.api.Quantities;
import io.colocation.api.ResourceNames;
import io.colocation.model.Resources;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A pod's effective requests (and limits), as Kubernetes' {@code PodRequests} computes them: the sum over
 * containers; the larger of that and each init container's request (restartable "sidecar" init
 * containers run alongside and add to both); plus {@code spec.overhead}. A container limit without a
 * request counts as the request, as the API server defaults it.
 */
public final class PodRequests {
    private PodRequests() {
    }

    /** The pod's effective cpu/memory request. */
    public static Resources of(Pod pod, String where) throws InvalidInputException {
        Map<String, Long> r = requests(pod, where);
        return new Resources(r.getOrDefault(ResourceNames.CPU, 0L), r.getOrDefault(ResourceNames.MEMORY, 0L));
    }

    /**
     * The pod's effective {@code kubernetes.io/batch-cpu} (milli-cores, the quantity's value) and
     * {@code kubernetes.io/batch-memory} (bytes) request: what a Batch pod takes from a node's Batch.
     */
    public static Resources batch(Pod pod, String where) throws InvalidInputException {
        Map<String, Long> r = requests(pod, where);
        return new Resources(r.getOrDefault(ResourceNames.BATCH_CPU, 0L), r.getOrDefault(ResourceNames.BATCH_MEMORY, 0L));
    }

    /**
     * Every resource the pod requests, effective as the scheduler counts it ({@code PodRequests}): cpu in
     * milli-cores, everything else (memory, batch-cpu, ...) as the quantity's integer value.
     */
    public static Map<String, Long> requests(Pod pod, String where) throws InvalidInputException {
        return effective(pod, where, "requests", PodRequests::defaultedRequests);
    }

    /** Every resource limit of the pod, combined as Kubernetes' {@code PodLimits} does; units as {@link #requests}. */
    public static Map<String, Long> limits(Pod pod, String where) throws InvalidInputException {
        return effective(pod, where, "limits",
                c -> c.getResources() == null || c.getResources().getLimits() == null ? Map.of() : c.getResources().getLimits());
    }

    /** Containers, sidecars and init containers combined as the scheduler does, plus the pod overhead. */
    private static Map<String, Long> effective(Pod pod, String where, String field, Function<Container, Map<String, Quantity>> list)
            throws InvalidInputException {
        Map<String, Long> sum = new TreeMap<>();
        if (pod.getSpec() == null) {
            return sum;
        }
        List<Container> containers = containers(pod);
        for (int i = 0; i < containers.size(); i++) {
            add(sum, read(list.apply(containers.get(i)), where + "spec.containers[" + i + "].resources." + field));
        }
        Map<String, Long> sidecars = new TreeMap<>();
        Map<String, Long> initMax = new TreeMap<>();
        List<Container> init = initContainers(pod);
        for (int i = 0; i < init.size(); i++) {
            Container c = init.get(i);
            Map<String, Long> r = read(list.apply(c), where + "spec.initContainers[" + i + "].resources." + field);
            if ("Always".equals(c.getRestartPolicy())) {
                add(sum, r);
                add(sidecars, r);
                max(initMax, sidecars);
            } else {
                Map<String, Long> withSidecars = new TreeMap<>(r);
                add(withSidecars, sidecars);
                max(initMax, withSidecars);
            }
        }
        max(sum, initMax);
        Map<String, Quantity> overhead = pod.getSpec().getOverhead();
        if (overhead != null) {
            add(sum, read(overhead, where + "spec.overhead"));
        }
        return sum;
    }

    /** The pod's containers; none when the list is absent or null (a hand-written file may say {@code containers: null}). */
    public static List<Container> containers(Pod pod) {
        return pod.getSpec() == null || pod.getSpec().getContainers() == null ? List.of() : pod.getSpec().getContainers();
    }

    /** The pod's init containers; none when the list is absent or null. */
    public static List<Container> initContainers(Pod pod) {
        return pod.getSpec() == null || pod.getSpec().getInitContainers() == null ? List.of() : pod.getSpec().getInitContainers();
    }

    private static Map<String, Long> read(Map<String, Quantity> list, String where) throws InvalidInputException {
        Map<String, Long> out = new TreeMap<>();
        if (list == null) {
            return out;
        }
        for (Map.Entry<String, Quantity> e : list.entrySet()) {
            Quantity q = e.getValue();
            String at = where + "." + e.getKey();
            if (q == null || q.getAmount() == null || q.getAmount().isEmpty()) {
                throw new InvalidInputException(at + ": no quantity (null or empty)");
            }
            out.put(e.getKey(), e.getKey().equals(ResourceNames.CPU) ? Quantities.milliValue(q.toString(), at)
                    : Quantities.value(q.toString(), at));
        }
        return out;
    }

    private static void add(Map<String, Long> into, Map<String, Long> more) {
        more.forEach((k, v) -> into.merge(k, v, Long::sum));
    }

    private static void max(Map<String, Long> into, Map<String, Long> other) {
        other.forEach((k, v) -> into.merge(k, v, Math::max));
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
