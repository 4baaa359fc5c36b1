package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.api.PriorityClass;
import io.colocation.api.ResourceNames;
import io.colocation.model.KubeQuantity;
import io.colocation.model.pod.PodClassifier;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * The extended-resource conversion at the end of stage 1 (docs/koordinator-compatibility.md §14.6): for a pod whose priority class
 * (label, then {@code spec.priority}, then its QoS) is batch or mid, {@code cpu} and {@code memory} of every init
 * container, container and the pod overhead become {@code kubernetes.io/batch-*} or {@code mid-*}: cpu as an integer of
 * milli-cores (rounded up), memory as the same quantity; a container's request is then filled from its limit.
 */
final class ResourceConversion {
    private ResourceConversion() {
    }

    /** @param typed the same pod as the typed model, for its priority class */
    static void convert(ObjectNode pod, Pod typed) throws PodMutation.Denied {
        PriorityClass pc = PodClassifier.priorityClass(typed);
        String cpu;
        String memory;
        if (pc == PriorityClass.BATCH) {
            cpu = ResourceNames.BATCH_CPU;
            memory = ResourceNames.BATCH_MEMORY;
        } else if (pc == PriorityClass.MID) {
            cpu = ResourceNames.MID_CPU;
            memory = ResourceNames.MID_MEMORY;
        } else {
            return;
        }
        JsonNode spec = pod.path("spec");
        for (String list : new String[] {"initContainers", "containers"}) {
            int i = 0;
            for (JsonNode c : spec.path(list)) {
                String at = "spec." + list + "[" + i++ + "].resources.";
                JsonNode resources = c.path("resources");
                if (!resources.isObject()) {
                    continue;
                }
                for (String field : new String[] {"requests", "limits"}) {
                    JsonNode map = resources.get(field);
                    if (map instanceof ObjectNode m) {
                        replace(m, "cpu", cpu, at + field + ".cpu");
                        replace(m, "memory", memory, at + field + ".memory");
                    }
                }
                requestFromLimit((ObjectNode) resources, cpu);
                requestFromLimit((ObjectNode) resources, memory);
            }
        }
        if (spec.path("overhead") instanceof ObjectNode overhead) {
            replace(overhead, "cpu", cpu, "spec.overhead.cpu");
            replace(overhead, "memory", memory, "spec.overhead.memory");
        }
    }

    /** {@code replaceAndEraseResource}: the value under the extended name (cpu in milli-cores), the original removed. */
    private static void replace(ObjectNode map, String from, String to, String field) throws PodMutation.Denied {
        JsonNode value = map.get(from);
        if (value == null) {
            return;
        }
        map.remove(from);
        if (from.equals("cpu")) {
            try {
                map.put(to, KubeQuantity.integer(KubeQuantity.parse(value.asText(), field).milliValue()).canonical());
            } catch (InvalidInputException e) {
                throw new PodMutation.Denied(e.getMessage());
            } catch (ArithmeticException e) {
                throw new PodMutation.Denied(field + ": " + value.asText() + " cores do not fit " + to + " (milli-cores as a 64-bit"
                        + " integer, at most 9223372036854775807)", 400);
            }
        } else {
            map.set(to, value);
        }
    }

    /** {@code restrictResourceRequestAndLimit}: a request missing where the limit is set takes the limit. */
    private static void requestFromLimit(ObjectNode resources, String name) {
        JsonNode limits = resources.path("limits");
        JsonNode requests = resources.path("requests");
        if (limits.has(name) && !requests.has(name)) {
            PodMutation.object(resources, "requests").set(name, limits.get(name));
        }
    }
}
