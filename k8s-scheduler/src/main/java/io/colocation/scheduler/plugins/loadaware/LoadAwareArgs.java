package io.colocation.scheduler.plugins.loadaware;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.model.GoDuration;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Koordinator's {@code LoadAwareSchedulingArgs} (docs/koordinator-compatibility.md §9.1): field names, defaults and validation;
 * durations as Go duration strings.
 */
public record LoadAwareArgs(
        boolean filterExpiredNodeMetrics,
        long nodeMetricExpirationSeconds,
        boolean enableScheduleWhenNodeMetricsExpired,
        Map<String, Long> resourceWeights,
        long dominantResourceWeight,
        Map<String, Long> usageThresholds,
        Map<String, Long> prodUsageThresholds,
        boolean prodUsageIncludeSys,
        boolean scoreAccordingProdUsage,
        Map<String, Long> estimatedScalingFactors,
        Long estimatedSecondsAfterPodScheduled,
        Long estimatedSecondsAfterInitialized,
        boolean allowCustomizeEstimation,
        Aggregated aggregated,
        List<String> supportedResources) {

    /**
     * @param usageAggregatedDuration zero: the longest duration the NodeMetric has
     */
    public record Aggregated(Map<String, Long> usageThresholds, String usageAggregationType, Duration usageAggregatedDuration,
            String scoreAggregationType, Duration scoreAggregatedDuration) {
        static final Aggregated NONE = new Aggregated(Map.of(), "", Duration.ZERO, "", Duration.ZERO);

        /** The filter uses aggregated usage when it has thresholds and a type. */
        boolean filters() {
            return !usageThresholds.isEmpty() && !usageAggregationType.isEmpty();
        }

        boolean scores() {
            return !scoreAggregationType.isEmpty();
        }
    }

    private static final List<String> AGGREGATION_TYPES = List.of("avg", "p50", "p90", "p95", "p99");

    public static LoadAwareArgs defaults() {
        try {
            return parse(null, "LoadAwareSchedulingArgs");
        } catch (InvalidInputException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The args of a {@code pluginConfig} entry over the defaults; {@code where} names it in errors. */
    public static LoadAwareArgs parse(JsonNode args, String where) throws InvalidInputException {
        JsonNode a = args == null || args.isNull() ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : args;
        if (!a.isNull() && !a.isObject()) {
            throw new InvalidInputException(where + ": must be an object");
        }
        Map<String, Long> weights = map(a, "resourceWeights", where, 1, 100);
        long dominant = integer(a, "dominantResourceWeight", where, 0, 0, 100);
        if (weights.isEmpty() && dominant == 0) {
            weights = new TreeMap<>(Map.of("cpu", 1L, "memory", 1L));
        }
        Map<String, Long> thresholds = map(a, "usageThresholds", where, 0, 100);
        if (thresholds.isEmpty()) {
            thresholds = new TreeMap<>(Map.of("cpu", 65L, "memory", 95L));
        }
        Map<String, Long> factors = map(a, "estimatedScalingFactors", where, 1, 100);
        factors.putIfAbsent("cpu", 85L);
        factors.putIfAbsent("memory", 70L);
        for (String r : weights.keySet()) {
            if (!factors.containsKey(r)) {
                throw new InvalidInputException(where + ".resourceWeights." + r + ": needs an estimatedScalingFactors entry for "
                        + r);
            }
        }
        String estimator = text(a, "estimator", where, "defaultEstimator");
        if (!estimator.equals("defaultEstimator")) {
            throw new InvalidInputException(where + ".estimator: only defaultEstimator is known, found '" + estimator + "'");
        }
        long expiration = integer(a, "nodeMetricExpirationSeconds", where, 180, 1, Long.MAX_VALUE);
        JsonNode agg = a.path("aggregated");
        Aggregated aggregated = Aggregated.NONE;
        if (agg.isObject()) {
            String at = where + ".aggregated";
            aggregated = new Aggregated(map(agg, "usageThresholds", at, 0, 100), aggregationType(agg, "usageAggregationType", at),
                    duration(agg, "usageAggregatedDuration", at), aggregationType(agg, "scoreAggregationType", at),
                    duration(agg, "scoreAggregatedDuration", at));
        } else if (!agg.isMissingNode() && !agg.isNull()) {
            throw new InvalidInputException(where + ".aggregated: must be an object");
        }
        List<String> supported = new java.util.ArrayList<>();
        JsonNode sr = a.path("supportedResources");
        if (sr.isArray()) {
            sr.forEach(n -> supported.add(n.asText()));
        }
        return new LoadAwareArgs(bool(a, "filterExpiredNodeMetrics", where, true), expiration,
                bool(a, "enableScheduleWhenNodeMetricsExpired", where, false), weights, dominant, thresholds,
                map(a, "prodUsageThresholds", where, 0, 100), bool(a, "prodUsageIncludeSys", where, false),
                bool(a, "scoreAccordingProdUsage", where, false), factors,
                optionalSeconds(a, "estimatedSecondsAfterPodScheduled", where),
                optionalSeconds(a, "estimatedSecondsAfterInitialized", where), bool(a, "allowCustomizeEstimation", where, false),
                aggregated, supported);
    }

    /** The resources the plugin looks at, sorted: cpu, memory and every resource any of its maps names. */
    public List<String> resourceVector() {
        java.util.TreeSet<String> v = new java.util.TreeSet<>(List.of("cpu", "memory"));
        v.addAll(resourceWeights.keySet());
        v.addAll(usageThresholds.keySet());
        v.addAll(prodUsageThresholds.keySet());
        v.addAll(estimatedScalingFactors.keySet());
        v.addAll(aggregated.usageThresholds().keySet());
        v.addAll(supportedResources);
        return List.copyOf(v);
    }

    private static Map<String, Long> map(JsonNode a, String field, String where, long min, long max) throws InvalidInputException {
        Map<String, Long> out = new TreeMap<>();
        JsonNode m = a.get(field);
        if (m == null || m.isNull()) {
            return out;
        }
        if (!m.isObject()) {
            throw new InvalidInputException(where + "." + field + ": must be a map of resource name to integer");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
                throw new InvalidInputException(where + "." + field + "." + e.getKey() + ": must be an integer from " + min + " to "
                        + max + ", found " + v);
            }
            out.put(e.getKey(), v.asLong());
        }
        return out;
    }

    private static long integer(JsonNode a, String field, String where, long absent, long min, long max)
            throws InvalidInputException {
        JsonNode v = a.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw new InvalidInputException(where + "." + field + ": must be an integer from " + min + " to " + max + ", found " + v);
        }
        return v.asLong();
    }

    private static Long optionalSeconds(JsonNode a, String field, String where) throws InvalidInputException {
        JsonNode v = a.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        return integer(a, field, where, 0, 0, Long.MAX_VALUE);
    }

    private static boolean bool(JsonNode a, String field, String where, boolean absent) throws InvalidInputException {
        JsonNode v = a.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        if (!v.isBoolean()) {
            throw new InvalidInputException(where + "." + field + ": must be true or false, found " + v);
        }
        return v.booleanValue();
    }

    private static String text(JsonNode a, String field, String where, String absent) throws InvalidInputException {
        JsonNode v = a.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        if (!v.isTextual()) {
            throw new InvalidInputException(where + "." + field + ": must be a string, found " + v);
        }
        return v.textValue();
    }

    private static String aggregationType(JsonNode a, String field, String where) throws InvalidInputException {
        String t = text(a, field, where, "");
        if (!t.isEmpty() && !AGGREGATION_TYPES.contains(t)) {
            throw new InvalidInputException(where + "." + field + ": must be one of " + AGGREGATION_TYPES + ", found '" + t + "'");
        }
        return t;
    }

    private static Duration duration(JsonNode a, String field, String where) throws InvalidInputException {
        String d = text(a, field, where, "");
        return d.isEmpty() ? Duration.ZERO : GoDuration.parse(d, where + "." + field);
    }

    /** A copy with the node annotation's overrides (docs/koordinator-compatibility.md §9.1); each part only when non-empty. */
    LoadAwareArgs withNodeOverrides(Map<String, Long> usage, Map<String, Long> prod, Aggregated agg) {
        return new LoadAwareArgs(filterExpiredNodeMetrics, nodeMetricExpirationSeconds, enableScheduleWhenNodeMetricsExpired,
                resourceWeights, dominantResourceWeight, usage.isEmpty() ? usageThresholds : usage,
                prod.isEmpty() ? prodUsageThresholds : prod, prodUsageIncludeSys, scoreAccordingProdUsage, estimatedScalingFactors,
                estimatedSecondsAfterPodScheduled, estimatedSecondsAfterInitialized, allowCustomizeEstimation,
                agg != null && agg.filters() ? new Aggregated(agg.usageThresholds(), agg.usageAggregationType(),
                        agg.usageAggregatedDuration(), aggregated.scoreAggregationType(), aggregated.scoreAggregatedDuration())
                        : aggregated,
                supportedResources);
    }
}
