package io.colocation.model.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.api.Quantities;
import java.util.List;

/**
 * The value rules of the NodeSLO strategies (docs/koordinator-compatibility.md §12), checked on every merged strategy:
 * each names the field and the value that breaks it. A path segment {@code *} stands for every QoS class.
 */
final class SloRules {
    enum Kind { BOOL, INT, STRING, QUANTITY, INT_OR_STRING, BOOL_MAP }

    record Rule(String path, Kind kind, Long min, Long max, List<String> values) {
        static Rule bool(String path) {
            return new Rule(path, Kind.BOOL, null, null, null);
        }

        static Rule range(String path, Long min, Long max) {
            return new Rule(path, Kind.INT, min, max, null);
        }

        static Rule oneOf(String path, String... values) {
            return new Rule(path, Kind.STRING, null, null, List.of(values));
        }

        static Rule of(String path, Kind kind) {
            return new Rule(path, kind, null, null, null);
        }
    }

    /** A pair of fields where the first must be greater than the second, when both are set. */
    record Above(String upper, String lower) {
    }

    private static final long INT32_MIN = Integer.MIN_VALUE;
    private static final long INT32_MAX = Integer.MAX_VALUE;
    static final List<String> QOS_CLASSES = List.of("lsrClass", "lsClass", "beClass", "systemClass");

    static final List<Rule> THRESHOLD = List.of(
            Rule.bool("enable"),
            Rule.range("cpuSuppressThresholdPercent", 0L, 100L),
            Rule.range("cpuSuppressMinPercent", 0L, 100L),
            Rule.oneOf("cpuSuppressPolicy", "cpuset", "cfsQuota"),
            Rule.range("memoryEvictThresholdPercent", 0L, 100L),
            Rule.range("memoryEvictLowerPercent", 0L, 100L),
            Rule.range("memoryAllocatableEvictThresholdPercent", 0L, null),
            Rule.range("memoryAllocatableEvictLowerPercent", 0L, null),
            Rule.range("cpuEvictBESatisfactionUpperPercent", 0L, 100L),
            Rule.range("cpuEvictBESatisfactionLowerPercent", 0L, 100L),
            Rule.range("cpuEvictBEUsageThresholdPercent", 0L, 100L),
            Rule.range("cpuEvictTimeWindowSeconds", 1L, null),
            Rule.range("cpuEvictThresholdPercent", 0L, 100L),
            Rule.range("cpuEvictLowerPercent", 0L, 100L),
            Rule.range("cpuAllocatableEvictThresholdPercent", 0L, null),
            Rule.range("cpuAllocatableEvictLowerPercent", 0L, null),
            Rule.oneOf("cpuEvictPolicy", "evictByRealLimit", "evictByAllocatable"),
            Rule.range("evictEnabledPriorityThreshold", INT32_MIN, INT32_MAX),
            Rule.range("allocatableEvictPriorityThreshold", 0L, 7999L));
    static final List<Above> THRESHOLD_ORDER = List.of(
            new Above("memoryEvictThresholdPercent", "memoryEvictLowerPercent"),
            new Above("cpuEvictBESatisfactionUpperPercent", "cpuEvictBESatisfactionLowerPercent"),
            new Above("cpuEvictThresholdPercent", "cpuEvictLowerPercent"));

    static final List<Rule> CPU_BURST = List.of(
            Rule.oneOf("policy", "none", "cpuBurstOnly", "cfsQuotaBurstOnly", "auto"),
            Rule.range("cpuBurstPercent", 1L, 10_000L),
            Rule.range("cfsQuotaBurstPercent", 100L, null),
            Rule.range("cfsQuotaBurstPeriodSeconds", -1L, null),
            Rule.range("sharePoolThresholdPercent", 0L, 100L));

    static final List<Rule> SYSTEM = List.of(
            Rule.range("minFreeKbytesFactor", 1L, null),
            Rule.range("watermarkScaleFactor", 1L, 400L),
            Rule.range("memcgReapBackGround", 0L, 1L),
            Rule.range("schedGroupIdentityEnabled", 0L, 1L),
            Rule.range("schedIdleSaverWmark", null, null),
            Rule.of("schedFeatures", Kind.BOOL_MAP),
            Rule.range("pageCacheLimitEnabled", 0L, 1L),
            Rule.of("totalNetworkBandwidth", Kind.QUANTITY));

    static final List<Rule> QOS = List.of(
            Rule.oneOf("policies.cpuPolicy", "groupIdentity", "coreSched"),
            Rule.oneOf("policies.netQOSPolicy", "tc", "terway-qos"),
            Rule.bool("*.cpuQOS.enable"),
            Rule.range("*.cpuQOS.groupIdentity", -1L, 2L),
            Rule.range("*.cpuQOS.schedIdle", 0L, 1L),
            Rule.bool("*.cpuQOS.coreExpeller"),
            Rule.bool("*.memoryQOS.enable"),
            Rule.range("*.memoryQOS.minLimitPercent", 0L, 100L),
            Rule.range("*.memoryQOS.lowLimitPercent", 0L, 100L),
            Rule.range("*.memoryQOS.throttlingPercent", 0L, 100L),
            Rule.range("*.memoryQOS.wmarkRatio", 0L, 100L),
            Rule.range("*.memoryQOS.wmarkScalePermill", 1L, 1000L),
            Rule.range("*.memoryQOS.wmarkMinAdj", -25L, 50L),
            Rule.range("*.memoryQOS.priorityEnable", 0L, 1L),
            Rule.range("*.memoryQOS.priority", 0L, 12L),
            Rule.range("*.memoryQOS.oomKillGroup", 0L, 1L),
            Rule.bool("*.memoryQOS.pageCacheEnable"),
            Rule.range("*.memoryQOS.pageCacheLimitPercent", 0L, 100L),
            Rule.range("*.memoryQOS.pageCacheLimitSize", 0L, null),
            Rule.bool("*.memoryQOS.pageCacheReclaimSync"),
            Rule.bool("*.resctrlQOS.enable"),
            Rule.range("*.resctrlQOS.catRangeStartPercent", 0L, 100L),
            Rule.range("*.resctrlQOS.catRangeEndPercent", 0L, 100L),
            Rule.range("*.resctrlQOS.mbaPercent", 0L, 100L),
            Rule.bool("*.networkQOS.enable"),
            Rule.of("*.networkQOS.ingressRequest", Kind.INT_OR_STRING),
            Rule.of("*.networkQOS.ingressLimit", Kind.INT_OR_STRING),
            Rule.of("*.networkQOS.egressRequest", Kind.INT_OR_STRING),
            Rule.of("*.networkQOS.egressLimit", Kind.INT_OR_STRING),
            Rule.bool("*.blkioQOS.enable"));
    static final List<Above> QOS_ORDER = List.of(new Above("*.resctrlQOS.catRangeEndPercent", "*.resctrlQOS.catRangeStartPercent"));

    private SloRules() {
    }

    /** Checks {@code strategy} against {@code rules}; problems are added as {@code prefix + path=value must ...}. */
    static void check(JsonNode strategy, List<Rule> rules, List<Above> order, String prefix, List<String> problems) {
        for (Rule rule : rules) {
            for (String path : expand(rule.path())) {
                JsonNode v = at(strategy, path);
                if (v == null || v.isNull()) {
                    continue;
                }
                String problem = problem(rule, v);
                if (problem != null) {
                    problems.add(prefix + path + "=" + v + " " + problem);
                }
            }
        }
        for (Above a : order) {
            List<String> uppers = expand(a.upper());
            List<String> lowers = expand(a.lower());
            for (int i = 0; i < uppers.size(); i++) {
                JsonNode upper = at(strategy, uppers.get(i));
                JsonNode lower = at(strategy, lowers.get(i));
                if (upper != null && lower != null && upper.isIntegralNumber() && lower.isIntegralNumber()
                        && upper.longValue() <= lower.longValue()) {
                    problems.add(prefix + uppers.get(i) + "=" + upper + " must be greater than " + lowers.get(i) + "=" + lower);
                }
            }
        }
    }

    private static List<String> expand(String path) {
        return path.startsWith("*.") ? QOS_CLASSES.stream().map(c -> c + path.substring(1)).toList() : List.of(path);
    }

    private static JsonNode at(JsonNode node, String path) {
        JsonNode current = node;
        for (String part : path.split("\\.")) {
            if (current == null || !current.isObject()) {
                return null;
            }
            current = current.get(part);
        }
        return current;
    }

    private static String problem(Rule rule, JsonNode v) {
        switch (rule.kind()) {
            case BOOL:
                return v.isBoolean() ? null : "must be true or false";
            case STRING:
                return v.isTextual() && rule.values().contains(v.textValue()) ? null
                        : "must be one of " + String.join(", ", rule.values());
            case QUANTITY:
                if (!v.isTextual() && !v.isNumber()) {
                    return "must be a quantity such as \"10G\"";
                }
                try {
                    Quantities.amount(v.asText(), "quantity");
                    return null;
                } catch (InvalidInputException e) {
                    return "is not a quantity such as \"10G\"";
                }
            case INT_OR_STRING:
                return v.isIntegralNumber() || v.isTextual() ? null : "must be a percent (integer) or an amount such as \"50M\"";
            case BOOL_MAP:
                if (!v.isObject()) {
                    return "must be a map of names to true or false";
                }
                for (JsonNode b : v) {
                    if (!b.isBoolean()) {
                        return "must be a map of names to true or false";
                    }
                }
                return null;
            default:
                if (!v.isIntegralNumber() || !v.canConvertToLong()) {
                    return "must be an integer";
                }
                long n = v.longValue();
                if ((rule.min() != null && n < rule.min()) || (rule.max() != null && n > rule.max())) {
                    return rule.max() == null ? "must be >= " + rule.min()
                            : rule.min() == null ? "must be <= " + rule.max() : "must be between " + rule.min() + " and " + rule.max();
                }
                return null;
        }
    }
}
