package io.colocation.koordlet.collect;

/**
 * NodeMetric {@code spec.metricCollectPolicy.nodeMemoryCollectPolicy}: what counts as used memory, for the node
 * (/proc/meminfo) and for each cgroup (memory.stat).
 */
public enum MemoryCollectPolicy {
    /** Default. Node: MemTotal − MemAvailable; cgroup: active + inactive anon + unevictable. */
    USAGE_WITHOUT_PAGE_CACHE("usageWithoutPageCache"),
    /** Adds the active (hot) file cache: Koordinator reads kidled's cold-page statistics, we use Active(file). */
    USAGE_WITH_HOT_PAGE_CACHE("usageWithHotPageCache"),
    /** Node: MemTotal − MemFree; cgroup: anon + unevictable + all file cache. */
    USAGE_WITH_PAGE_CACHE("usageWithPageCache");

    private final String wireName;

    MemoryCollectPolicy(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The policy named on the wire; null for an unknown name. */
    public static MemoryCollectPolicy fromWire(String name) {
        for (MemoryCollectPolicy p : values()) {
            if (p.wireName.equals(name)) {
                return p;
            }
        }
        return null;
    }
}
