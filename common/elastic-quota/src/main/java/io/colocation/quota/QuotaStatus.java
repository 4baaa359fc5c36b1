package io.colocation.quota;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the scheduler writes on an ElasticQuota object (docs/koordinator-compatibility.md §15.4, Koordinator's
 * {@code updateElasticQuotaStatusIfChanged}): the annotations {@code runtime}, {@code request}, {@code child-request},
 * {@code non-preemptible-request} and {@code non-preemptible-used} as JSON ResourceLists, and {@code status.used}.
 * Each is compared with what the object carries with zeros dropped, so an unchanged quota is not written.
 */
public record QuotaStatus(Map<String, ResourceAmounts> annotations, ResourceAmounts used) {
    public static final String RUNTIME = ElasticQuotaSpec.PREFIX + "runtime";
    public static final String REQUEST = ElasticQuotaSpec.PREFIX + "request";
    public static final String CHILD_REQUEST = ElasticQuotaSpec.PREFIX + "child-request";
    public static final String NON_PREEMPTIBLE_REQUEST = ElasticQuotaSpec.PREFIX + "non-preemptible-request";
    public static final String NON_PREEMPTIBLE_USED = ElasticQuotaSpec.PREFIX + "non-preemptible-used";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A quota's status from its computed state and its usage now (its subtree's). */
    public static QuotaStatus of(QuotaState state, QuotaUsage usage) {
        Map<String, ResourceAmounts> a = new LinkedHashMap<>();
        a.put(RUNTIME, state.runtime());
        a.put(REQUEST, state.request());
        a.put(CHILD_REQUEST, state.childRequest());
        a.put(NON_PREEMPTIBLE_REQUEST, usage.nonPreemptibleRequest());
        a.put(NON_PREEMPTIBLE_USED, usage.nonPreemptibleUsed());
        return new QuotaStatus(a, usage.used());
    }

    /**
     * The annotations to write, as JSON, where the object's differ from this status; an annotation the object carries
     * that is not a ResourceList is replaced.
     */
    public Map<String, String> changedAnnotations(Map<String, String> current) {
        Map<String, String> out = new TreeMap<>();
        annotations.forEach((key, amounts) -> {
            String was = current == null ? null : current.get(key);
            ResourceAmounts written = was == null || was.isEmpty() ? ResourceAmounts.NONE : QuotaUnits.readOrNull(was);
            if (!same(written, amounts)) {
                out.put(key, json(amounts));
            }
        });
        return out;
    }

    /** Whether {@code status.used} as the object has it differs from this status's. */
    public boolean usedChanged(JsonNode currentUsed) {
        return !same(QuotaUnits.readOrNull(currentUsed), used);
    }

    /** {@code status.used} as written: name → quantity string. */
    public Map<String, String> usedList() {
        return QuotaUnits.write(used);
    }

    private static boolean same(ResourceAmounts was, ResourceAmounts now) {
        return was != null && was.withoutZeros().equals(now.withoutZeros());
    }

    /**
     * The {@code runtime} annotation an ElasticQuota object carries (a tree over Batch's, which the broker's leader
     * writes and the scheduler admits by), null when absent or not a ResourceList.
     */
    public static ResourceAmounts runtimeOf(JsonNode object) {
        String json = object.path("metadata").path("annotations").path(RUNTIME).asText("");
        return json.isEmpty() ? null : QuotaUnits.readOrNull(json);
    }

    /** A ResourceList as an annotation holds it: {@code {"kubernetes.io/batch-cpu":"4k"}}. */
    public static String json(ResourceAmounts amounts) {
        try {
            return JSON.writeValueAsString(QuotaUnits.write(amounts));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings is always JSON", e);
        }
    }
}
