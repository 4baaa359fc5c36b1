package io.colocation.model.config;

/** How Batch is derived from high-priority pods: by their usage, their requests, or the larger of the two. */
public enum CalculatePolicy {
    USAGE("usage"), REQUEST("request"), MAX_USAGE_REQUEST("maxUsageRequest");

    private final String json;

    CalculatePolicy(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }

    /** The policy for a configuration value, or null if the value names none. */
    public static CalculatePolicy fromJson(String value) {
        for (CalculatePolicy p : values()) {
            if (p.json.equals(value)) {
                return p;
            }
        }
        return null;
    }
}
