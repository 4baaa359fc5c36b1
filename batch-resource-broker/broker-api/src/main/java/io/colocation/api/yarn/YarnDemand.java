package io.colocation.api.yarn;

import java.util.Map;

/**
 * Outstanding YARN resource requests: cluster-wide, and per node partition (label; "" is the default
 * partition).
 */
public record YarnDemand(int pendingVcores, long pendingMemoryMB, Map<String, Partition> partitions, long reportedAtMillis) {

    public record Partition(int pendingVcores, long pendingMemoryMB) {
    }
}
