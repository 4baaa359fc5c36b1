package io.colocation.koordlet.qos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.model.config.JsonMerge;
import io.colocation.model.config.SloConfigKey;
import io.colocation.model.config.SloConfigParser;
import java.util.List;

/**
 * NodeSLO {@code spec.resourceUsedThresholdWithBE} as the koordlet uses it: laid over Koordinator's defaults
 * (enable false, suppress 65 % with cpuset, memory eviction at 70 %, evictByRealLimit); null = unset.
 */
public record ResourceThresholds(
        boolean enable,
        Long cpuSuppressThresholdPercent,
        Long cpuSuppressMinPercent,
        String cpuSuppressPolicy,
        Long memoryEvictThresholdPercent,
        Long memoryEvictLowerPercent,
        Long memoryAllocatableEvictThresholdPercent,
        Long memoryAllocatableEvictLowerPercent,
        Long cpuEvictBESatisfactionUpperPercent,
        Long cpuEvictBESatisfactionLowerPercent,
        Long cpuEvictBEUsageThresholdPercent,
        Long cpuEvictTimeWindowSeconds,
        Long cpuEvictThresholdPercent,
        Long cpuEvictLowerPercent,
        Long cpuAllocatableEvictThresholdPercent,
        Long cpuAllocatableEvictLowerPercent,
        String cpuEvictPolicy,
        Long evictEnabledPriorityThreshold,
        Long allocatableEvictPriorityThreshold) {

    public static final String POLICY_CPUSET = "cpuset";
    public static final String POLICY_CFS_QUOTA = "cfsQuota";
    public static final String EVICT_BY_ALLOCATABLE = "evictByAllocatable";

    private static final ResourceThresholds DEFAULTS = decodeDefaults();

    /** Koordinator's defaults (decoded once: the round asks for them whenever a node has no NodeSLO yet). */
    public static ResourceThresholds defaults() {
        return DEFAULTS;
    }

    private static ResourceThresholds decodeDefaults() {
        try {
            return of(null, "defaults");
        } catch (InvalidInputException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The NodeSLO's object (null: none) over the defaults; {@code where} names it in errors. */
    public static ResourceThresholds of(JsonNode spec, String where) throws InvalidInputException {
        if (spec != null && !spec.isNull() && !spec.isObject()) {
            throw new InvalidInputException(where + ": must be an object");
        }
        ObjectNode t = JsonMerge.merge(SloConfigKey.RESOURCE_THRESHOLD.defaults(), spec);
        // Koordinator's value rules, as the broker checks a ConfigMap's: a percent of 9223372036854775807 written into a
        // NodeSLO by hand must not overflow into the most suppression there is. A threshold not above its lower bound is
        // the eviction strategy's to judge: it skips itself for the round, and suppression and the others run
        List<String> problems = SloConfigParser.valueProblems(SloConfigKey.RESOURCE_THRESHOLD, t, where);
        if (!problems.isEmpty()) {
            throw new InvalidInputException(String.join("; ", problems));
        }
        JsonNode enable = t.get("enable");
        if (enable != null && !enable.isBoolean()) {
            throw new InvalidInputException(where + ".enable: must be true or false, found " + enable);
        }
        return new ResourceThresholds(enable != null && enable.booleanValue(),
                integer(t, "cpuSuppressThresholdPercent", where), integer(t, "cpuSuppressMinPercent", where),
                text(t, "cpuSuppressPolicy", where),
                integer(t, "memoryEvictThresholdPercent", where), integer(t, "memoryEvictLowerPercent", where),
                integer(t, "memoryAllocatableEvictThresholdPercent", where), integer(t, "memoryAllocatableEvictLowerPercent", where),
                integer(t, "cpuEvictBESatisfactionUpperPercent", where), integer(t, "cpuEvictBESatisfactionLowerPercent", where),
                integer(t, "cpuEvictBEUsageThresholdPercent", where), integer(t, "cpuEvictTimeWindowSeconds", where),
                integer(t, "cpuEvictThresholdPercent", where), integer(t, "cpuEvictLowerPercent", where),
                integer(t, "cpuAllocatableEvictThresholdPercent", where), integer(t, "cpuAllocatableEvictLowerPercent", where),
                text(t, "cpuEvictPolicy", where),
                integer(t, "evictEnabledPriorityThreshold", where), integer(t, "allocatableEvictPriorityThreshold", where));
    }

    private static Long integer(ObjectNode t, String field, String where) throws InvalidInputException {
        JsonNode v = t.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new InvalidInputException(where + "." + field + ": must be an integer, found " + v);
        }
        return v.longValue();
    }

    private static String text(ObjectNode t, String field, String where) throws InvalidInputException {
        JsonNode v = t.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new InvalidInputException(where + "." + field + ": must be a string, found " + v);
        }
        return v.textValue();
    }

    public String suppressPolicy() {
        return POLICY_CFS_QUOTA.equals(cpuSuppressPolicy) ? POLICY_CFS_QUOTA : POLICY_CPUSET;
    }
}
