package io.colocation.scheduler.plugins.loadaware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import java.util.Map;

/**
 * The node annotation {@code scheduling.koordinator.sh/usage-thresholds}: per-node filter thresholds that replace the
 * args' (each part only when non-empty); a malformed annotation leaves the args as they are, as in Koordinator.
 */
final class UsageThresholdsAnnotation {
    static final String KEY = "scheduling.koordinator.sh/usage-thresholds";
    private static final ObjectMapper JSON = new ObjectMapper();

    private UsageThresholdsAnnotation() {
    }

    static LoadAwareArgs apply(LoadAwareArgs args, Map<String, String> annotations) {
        String value = annotations.get(KEY);
        if (value == null) {
            return args;
        }
        try {
            JsonNode root = JSON.readTree(value);
            if (root == null || !root.isObject()) {
                return args;
            }
            LoadAwareArgs usage = LoadAwareArgs.parse(JSON.createObjectNode()
                    .set("usageThresholds", root.path("usageThresholds").isObject() ? root.get("usageThresholds") : null), KEY);
            boolean hasUsage = root.path("usageThresholds").size() > 0;
            LoadAwareArgs prod = LoadAwareArgs.parse(JSON.createObjectNode()
                    .set("prodUsageThresholds", root.path("prodUsageThresholds").isObject() ? root.get("prodUsageThresholds") : null), KEY);
            LoadAwareArgs.Aggregated aggregated = null;
            JsonNode agg = root.path("aggregatedUsage");
            if (agg.isObject()) {
                aggregated = LoadAwareArgs.parse(JSON.createObjectNode().set("aggregated", agg), KEY).aggregated();
            }
            return args.withNodeOverrides(hasUsage ? usage.usageThresholds() : Map.of(), prod.prodUsageThresholds(), aggregated);
        } catch (com.fasterxml.jackson.core.JsonProcessingException | InvalidInputException e) {
            return args;
        }
    }
}
