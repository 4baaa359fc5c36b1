package io.colocation.api.yarn;

import java.util.Map;

/**
 * Outstanding YARN resource requests: cluster-wide, and per node partition (label; "" is the default
 * partition).
 */
public record YarnDemand(int pendingVcores, long pendingMemoryMB, Map<String, Partition> partitions, long reportedAtMillis) {
    public YarnDemand {
        Validation.notNegative("pendingVcores", pendingVcores);
        Validation.notNegative("pendingMemoryMB", pendingMemoryMB);
    }


    public record Partition(int pendingVcores, long pendingMemoryMB) {
        public Partition {
            Validation.notNegative("pendingVcores", pendingVcores);
            Validation.notNegative("pendingMemoryMB", pendingMemoryMB);
        }
    }
}
