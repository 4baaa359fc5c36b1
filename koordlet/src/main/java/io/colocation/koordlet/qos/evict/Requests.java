package io.colocation.koordlet.qos.evict;

import io.colocation.api.PriorityClass;
import io.colocation.api.ResourceNames;
import io.colocation.koordlet.qos.QoSPod;
import java.util.Map;

/** Koordinator's {@code GetRequestTypeAndValueFromPod}: a pod's request in the resource of its priority class. */
final class Requests {
    private Requests() {
    }

    /** For {@code cpu}: mid-cpu, batch-cpu or cpu (milli); for {@code memory}: mid-, batch- or plain memory. */
    static Map.Entry<String, Long> typed(QoSPod pod, String resource) {
        boolean cpu = resource.equals(ResourceNames.CPU);
        String name;
        if (pod.priorityClass() == PriorityClass.MID) {
            name = cpu ? ResourceNames.MID_CPU : ResourceNames.MID_MEMORY;
        } else if (pod.priorityClass() == PriorityClass.BATCH) {
            name = cpu ? ResourceNames.BATCH_CPU : ResourceNames.BATCH_MEMORY;
        } else {
            name = resource;
        }
        return Map.entry(name, pod.request(name));
    }

    /** The priority class whose pods request a resource: batch-* → koord-batch, mid-* → koord-mid, else none. */
    static PriorityClass classOf(String resource) {
        return switch (resource) {
            case ResourceNames.BATCH_CPU, ResourceNames.BATCH_MEMORY -> PriorityClass.BATCH;
            case ResourceNames.MID_CPU, ResourceNames.MID_MEMORY -> PriorityClass.MID;
            default -> PriorityClass.NONE;
        };
    }
}
