package io.colocation.model;

import io.colocation.api.Quantities;
import io.colocation.api.InvalidInputException;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** The cpu (milli-cores) and memory (bytes) of a Kubernetes resource list; a missing one is 0. */
public final class ResourceLists {
    private ResourceLists() {
    }

    /** A list from a typed object (pod containers, node status). */
    public static Resources cpuMemory(Map<String, Quantity> list, String where) throws InvalidInputException {
        Quantity cpu = present(list, "cpu", where);
        Quantity memory = present(list, "memory", where);
        return of(cpu == null ? null : cpu.toString(), memory == null ? null : memory.toString(), where);
    }

    /** An extended cpu/memory pair (batch-*, mid-*), each written as a plain value; a missing one is 0. */
    public static Resources extended(Map<String, Quantity> list, String cpuName, String memoryName, String where)
            throws InvalidInputException {
        Quantity cpu = list == null ? null : list.get(cpuName);
        Quantity memory = list == null ? null : list.get(memoryName);
        return new Resources(
                cpu == null ? 0 : Quantities.value(cpu.toString(), where + "." + cpuName),
                memory == null ? 0 : Quantities.value(memory.toString(), where + "." + memoryName));
    }

    /** A list from JSON (NodeMetric, annotations). */
    public static Resources cpuMemory(JsonNode list, String where) throws InvalidInputException {
        if (list == null || list.isNull() || list.isMissingNode()) {
            return Resources.ZERO;
        }
        if (!list.isObject()) {
            throw new InvalidInputException(where + ": must be a map of resource names to quantities, found " + list.getNodeType());
        }
        return of(text(list, "cpu", where), text(list, "memory", where), where);
    }

    /** The quantity, null when the key is absent; a key with no value is an error (it would silently count as 0). */
    private static Quantity present(Map<String, Quantity> list, String key, String where) throws InvalidInputException {
        if (list == null || !list.containsKey(key)) {
            return null;
        }
        Quantity q = list.get(key);
        if (q == null || q.getAmount() == null || q.getAmount().isEmpty()) {
            throw new InvalidInputException(where + "." + key + ": no quantity (null or empty)");
        }
        return q;
    }

    private static String text(JsonNode list, String key, String where) throws InvalidInputException {
        JsonNode v = list.get(key);
        if (v == null) {
            return null;
        }
        if (!v.isTextual() && !v.isNumber()) {
            throw new InvalidInputException(where + "." + key + ": " + (v.isNull() ? "no quantity (null)" : "must be a quantity, found "
                    + v.getNodeType()));
        }
        return v.asText();
    }

    private static Resources of(String cpu, String memory, String where) throws InvalidInputException {
        return new Resources(
                cpu == null ? 0 : Quantities.milliValue(cpu, where + ".cpu"),
                memory == null ? 0 : Quantities.value(memory, where + ".memory"));
    }
}
