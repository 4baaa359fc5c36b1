package io.colocation.scheduler.plugins.loadaware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.PriorityClass;
import io.colocation.api.ResourceNames;
import io.colocation.scheduler.framework.PodInfo;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Koordinator's {@code defaultEstimator} (docs/koordinator-compatibility.md §9.2): what a pod will use, from the larger of its
 * request and limit in the resource of its priority class, scaled by the factor and capped at the limit; a pod
 * asking nothing counts 250m CPU and 200 MiB.
 */
final class PodEstimator {
    static final long DEFAULT_MILLI_CPU = 250;
    static final long DEFAULT_MEMORY = 200L * 1024 * 1024;
    static final String ANNOTATION_SCALING_FACTORS = "scheduling.koordinator.sh/load-estimated-scaling-factors";
    private static final ObjectMapper JSON = new ObjectMapper();

    private PodEstimator() {
    }

    /** Estimated use keyed by the factor's resource ({@code cpu}, {@code memory}): batch pods load cpu/memory. */
    static Map<String, Long> estimate(PodInfo pod, LoadAwareArgs args) {
        Map<String, Long> factors = new LinkedHashMap<>(args.estimatedScalingFactors());
        if (args.allowCustomizeEstimation()) {
            factors.putAll(customFactors(pod.annotations().get(ANNOTATION_SCALING_FACTORS)));
        }
        Map<String, Long> out = new LinkedHashMap<>();
        factors.forEach((r, f) -> out.put(r, byResource(pod, translate(pod.priorityClass(), r), f)));
        return out;
    }

    /** {@code TranslateResourceNameByPriorityClass}: batch-/mid- names for those classes, none for koord-free. */
    static String translate(PriorityClass c, String resource) {
        boolean cpu = resource.equals(ResourceNames.CPU);
        boolean memory = resource.equals(ResourceNames.MEMORY);
        return switch (c) {
            case BATCH -> cpu ? ResourceNames.BATCH_CPU : memory ? ResourceNames.BATCH_MEMORY : resource;
            case MID -> cpu ? ResourceNames.MID_CPU : memory ? ResourceNames.MID_MEMORY : resource;
            case FREE -> "";
            default -> resource;
        };
    }

    private static long byResource(PodInfo pod, String name, long factor) {
        long limit = pod.limits().getOrDefault(name, 0L);
        long q = Math.max(pod.requests().getOrDefault(name, 0L), limit);
        if (q == 0) {
            return switch (name) {
                case ResourceNames.CPU, ResourceNames.BATCH_CPU -> DEFAULT_MILLI_CPU;
                case ResourceNames.MEMORY, ResourceNames.BATCH_MEMORY -> DEFAULT_MEMORY;
                default -> 0;
            };
        }
        long est = Math.round((double) q * factor / 100); // Go's math.Round: half away from zero, same for q > 0
        return limit > 0 && est > limit ? limit : est;
    }

    private static Map<String, Long> customFactors(String json) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (json == null) {
            return out;
        }
        try {
            JsonNode m = JSON.readTree(json);
            for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().canConvertToLong()) {
                    out.put(e.getKey(), e.getValue().asLong());
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException | RuntimeException e) {
            return Map.of(); // Koordinator ignores a malformed annotation
        }
        return out;
    }
}
