package io.colocation.model.node;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import io.colocation.api.KoordinatorKeys;
import io.colocation.api.PriorityClass;
import io.colocation.api.Quantities;
import io.colocation.api.ResourceNames;
import io.colocation.model.ResourceLists;
import io.colocation.model.Resources;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The Koordinator node annotations the calculation reads. Those Koordinator tolerates when malformed
 * (reservation, CPU normalization ratio) are ignored with a note; a malformed {@code thirdPartyAllocations},
 * which makes Koordinator fail the node's update, is an error.
 */
public final class NodeAnnotations {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CPU_LIST = Pattern.compile("\\s*\\d+(\\s*-\\s*\\d+)?(\\s*,\\s*\\d+(\\s*-\\s*\\d+)?)*\\s*");
    /** Linux's largest NR_CPUS is 8192; ids far past it are a typo or an attack, not a machine. */
    private static final int MAX_CPU_ID = 65536;
    private static final int MAX_CPU_LIST_LENGTH = 16384;

    private NodeAnnotations() {
    }

    /**
     * The Batch that {@code node.koordinator.sh/originExtendedAllocatable} shows ({@code resources} batch-cpu in milli-cores,
     * batch-memory in bytes); null when the annotation is absent or cannot be read.
     */
    public static Resources originBatch(String json) {
        if (json == null) {
            return null;
        }
        try {
            JsonNode r = JSON.readTree(json).path("resources");
            return new Resources(Long.parseLong(r.path(ResourceNames.BATCH_CPU).asText()),
                    Long.parseLong(r.path(ResourceNames.BATCH_MEMORY).asText()));
        } catch (JsonProcessingException | RuntimeException e) {
            return null;
        }
    }

    /** {@code node.koordinator.sh/reservation}: resources, with reservedCPUs' count replacing the CPU. */
    public static Resources reservation(String json, String where, List<String> notes) throws InvalidInputException {
        if (json == null) {
            return Resources.ZERO;
        }
        String at = where + ": annotation " + KoordinatorKeys.ANNOTATION_NODE_RESERVATION;
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            notes.add("ignored " + at + ": malformed JSON (" + e.getOriginalMessage() + ")");
            return Resources.ZERO;
        }
        if (root == null || !root.isObject()) {
            notes.add("ignored " + at + ": not a JSON object");
            return Resources.ZERO;
        }
        Resources reserved = ResourceLists.cpuMemory(root.get("resources"), at + " resources");
        JsonNode cpus = root.get("reservedCPUs");
        if (cpus != null && cpus.isTextual() && !cpus.textValue().isEmpty()) {
            int count = countCpus(cpus.textValue());
            if (count < 0) {
                notes.add("ignored " + at + ": reservedCPUs \"" + cpus.textValue() + "\" is not a CPU list such as 0-3,8");
            } else {
                reserved = new Resources(count * 1000L, reserved.memoryBytes());
            }
        }
        return reserved;
    }

    /** The number of CPUs in a Linux CPU list ({@code 0-3,8}), or -1 if it is not one. */
    public static int countCpus(String list) {
        List<Integer> cpus = cpuList(list);
        return cpus == null ? -1 : cpus.size();
    }

    /** The CPUs of a Linux CPU list ({@code 0-3,8}), ascending; null if it is not one. */
    public static List<Integer> cpuList(String list) {
        if (list.length() > MAX_CPU_LIST_LENGTH || !CPU_LIST.matcher(list).matches()) {
            return null;
        }
        java.util.BitSet cpus = new java.util.BitSet();
        for (String part : list.split(",")) {
            int dash = part.indexOf('-');
            String first = (dash < 0 ? part : part.substring(0, dash)).trim();
            String last = dash < 0 ? first : part.substring(dash + 1).trim();
            if (first.length() > 6 || last.length() > 6) {
                return null;
            }
            int from = Integer.parseInt(first);
            int to = Integer.parseInt(last);
            if (to < from || to >= MAX_CPU_ID) {
                return null;
            }
            cpus.set(from, to + 1);
        }
        List<Integer> out = new java.util.ArrayList<>(cpus.cardinality());
        for (int c = cpus.nextSetBit(0); c >= 0; c = cpus.nextSetBit(c + 1)) {
            out.add(c);
        }
        return java.util.Collections.unmodifiableList(out);
    }

    /** A Linux CPU list for the CPUs, ascending with ranges ({@code 0-3,8}); empty for none. */
    public static String formatCpuList(java.util.Collection<Integer> cpus) {
        java.util.BitSet set = new java.util.BitSet();
        for (int c : cpus) {
            set.set(c);
        }
        StringBuilder out = new StringBuilder();
        for (int from = set.nextSetBit(0); from >= 0; from = set.nextSetBit(from + 1)) {
            int to = set.nextClearBit(from) - 1;
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(from);
            if (to > from) {
                out.append('-').append(to);
            }
            from = to;
        }
        return out.toString();
    }

    public static Double normalizationRatio(String value, String where, List<String> notes) {
        if (value == null) {
            return null;
        }
        try {
            double ratio = Double.parseDouble(value.trim());
            if (Double.isNaN(ratio) || Double.isInfinite(ratio)) {
                throw new NumberFormatException();
            }
            return ratio;
        } catch (NumberFormatException e) {
            notes.add("ignored " + where + ": annotation " + KoordinatorKeys.ANNOTATION_CPU_NORMALIZATION_RATIO + "=\""
                    + value + "\" is not a number");
            return null;
        }
    }

    /**
     * An annotation's JSON object; otherwise an error naming the annotation ({@code at}) and the shape it must have.
     */
    static JsonNode jsonObject(String json, String at, String shape) throws InvalidInputException {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidInputException(at + ": malformed JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new InvalidInputException(at + ": must be a JSON object " + shape);
        }
        return root;
    }

    /** Sum of the {@code koord-batch} entries of {@code node.koordinator.sh/thirdPartyAllocations}; null if absent. */
    public static Resources thirdPartyBatch(String json, String where) throws InvalidInputException {
        if (json == null) {
            return null;
        }
        String at = where + ": annotation " + KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS;
        JsonNode root = jsonObject(json, at, "{\"allocations\":[...]}");
        Resources sum = Resources.ZERO;
        JsonNode allocations = root.path("allocations");
        if (!allocations.isMissingNode() && !allocations.isNull() && !allocations.isArray()) {
            throw new InvalidInputException(at + ": allocations must be a list, found " + allocations.getNodeType());
        }
        for (int i = 0; i < allocations.size(); i++) {
            JsonNode a = allocations.get(i);
            if (!a.isObject()) {
                throw new InvalidInputException(at + ": allocations[" + i + "] must be an object, found " + a.getNodeType());
            }
            if (PriorityClass.fromName(a.path("priority").asText()) != PriorityClass.BATCH) {
                continue;
            }
            JsonNode resources = a.path("resources");
            String entry = at + " allocations[" + i + "].resources.";
            long cpu = resources.has(ResourceNames.BATCH_CPU)
                    ? Quantities.value(resources.get(ResourceNames.BATCH_CPU).asText(), entry + ResourceNames.BATCH_CPU) : 0;
            long memory = resources.has(ResourceNames.BATCH_MEMORY)
                    ? Quantities.value(resources.get(ResourceNames.BATCH_MEMORY).asText(), entry + ResourceNames.BATCH_MEMORY) : 0;
            sum = sum.plus(new Resources(cpu, memory));
        }
        return sum;
    }
}
