package io.colocation.model.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@link ColocationStrategy} from its JSON form (the fields of Koordinator's ColocationStrategy)
 * and validates values as Koordinator's {@code IsColocationStrategyValid} does, plus the value sets the
 * compat table states. Problems are collected, each naming the key (with {@code prefix}) and the value.
 */
final class ColocationStrategyReader {
    /**
     * Koordinator only checks these percents are >= 0 (and a reclaim percent above 100 is meaningful, see
     * docs/koordinator-compatibility.md §2.6); past this bound the arithmetic would overflow a 64-bit integer, so it is refused.
     */
    static final long MAX_UNBOUNDED_PERCENT = 10_000;

    private final List<String> problems;
    private final String prefix;

    ColocationStrategyReader(List<String> problems, String prefix) {
        this.problems = problems;
        this.prefix = prefix;
    }

    ColocationStrategy read(JsonNode node) {
        if (node == null || node.isNull()) {
            return ColocationStrategy.EMPTY;
        }
        if (!node.isObject()) {
            problem(prefix.isEmpty() ? "(strategy)" : prefix.substring(0, prefix.length() - 1), node, "must be a JSON object");
            return ColocationStrategy.EMPTY;
        }
        return new ColocationStrategy(
                bool(node, "enable"),
                number(node, "metricAggregateDurationSeconds", 1, null),
                number(node, "metricReportIntervalSeconds", 1, null),
                durations(node),
                oneOf(node, "metricMemoryCollectPolicy",
                        List.of("usageWithoutPageCache", "usageWithHotPageCache", "usageWithPageCache")),
                number(node, "cpuReclaimThresholdPercent", 0, MAX_UNBOUNDED_PERCENT),
                policy(node, "cpuCalculatePolicy"),
                number(node, "memoryReclaimThresholdPercent", 0, MAX_UNBOUNDED_PERCENT),
                policy(node, "memoryCalculatePolicy"),
                number(node, "degradeTimeMinutes", 1, null),
                number(node, "updateTimeThresholdSeconds", 1, null),
                diffThreshold(node),
                number(node, "batchCPUThresholdPercent", 0, MAX_UNBOUNDED_PERCENT),
                number(node, "batchMemoryThresholdPercent", 0, MAX_UNBOUNDED_PERCENT),
                oneOf(node, "midReclaimMode", List.of(ColocationStrategy.MID_RECLAIM_MODE_STATIC)),
                number(node, "midCPUThresholdPercent", 0, 100L),
                number(node, "midMemoryThresholdPercent", 0, 100L),
                number(node, "midUnallocatedPercent", 0, 100L),
                number(node, "midStaticCPUReservedPercent", 0, 100L),
                number(node, "midStaticMemoryReservedPercent", 0, 100L));
    }

    private Boolean bool(JsonNode node, String key) {
        JsonNode v = node.get(key);
        if (absent(v)) {
            return null;
        }
        if (!v.isBoolean()) {
            problem(key, v, "must be true or false");
            return null;
        }
        return v.booleanValue();
    }

    private Long number(JsonNode node, String key, long min, Long max) {
        JsonNode v = node.get(key);
        if (absent(v)) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            problem(key, v, "must be an integer");
            return null;
        }
        long value = v.longValue();
        if (value < min || (max != null && value > max)) {
            problem(key, v, max == null ? "must be >= " + min : "must be between " + min + " and " + max);
            return null;
        }
        return value;
    }

    private Double diffThreshold(JsonNode node) {
        String key = "resourceDiffThreshold";
        JsonNode v = node.get(key);
        if (absent(v)) {
            return null;
        }
        if (!v.isNumber()) {
            problem(key, v, "must be a number");
            return null;
        }
        double value = v.doubleValue();
        if (!(value > 0 && value <= 1)) {
            problem(key, v, "must be > 0 and <= 1");
            return null;
        }
        return value;
    }

    private CalculatePolicy policy(JsonNode node, String key) {
        JsonNode v = node.get(key);
        if (absent(v)) {
            return null;
        }
        CalculatePolicy policy = v.isTextual() ? CalculatePolicy.fromJson(v.textValue()) : null;
        if (policy == null) {
            problem(key, v, "must be one of usage, request, maxUsageRequest");
        }
        return policy;
    }

    private String oneOf(JsonNode node, String key, List<String> allowed) {
        JsonNode v = node.get(key);
        if (absent(v)) {
            return null;
        }
        if (!v.isTextual() || !allowed.contains(v.textValue())) {
            problem(key, v, "must be " + (allowed.size() == 1 ? "" : "one of ") + String.join(", ", allowed));
            return null;
        }
        return v.textValue();
    }

    private List<String> durations(JsonNode node) {
        JsonNode policy = node.get("metricAggregatePolicy");
        if (absent(policy)) {
            return null;
        }
        JsonNode durations = policy.get("durations");
        if (!policy.isObject() || absent(durations)) {
            return null;
        }
        if (!durations.isArray()) {
            problem("metricAggregatePolicy.durations", durations, "must be a list of durations such as \"5m\"");
            return null;
        }
        List<String> out = new ArrayList<>();
        for (JsonNode d : durations) {
            if (!d.isTextual() || !d.textValue().matches("([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+")) {
                problem("metricAggregatePolicy.durations", d, "is not a duration such as \"5m\"");
                return null;
            }
            out.add(d.textValue());
        }
        return List.copyOf(out);
    }

    private static boolean absent(JsonNode v) {
        return v == null || v.isNull() || v.isMissingNode();
    }

    private void problem(String key, JsonNode value, String what) {
        problems.add(prefix + key + "=" + value + " " + what);
    }
}
