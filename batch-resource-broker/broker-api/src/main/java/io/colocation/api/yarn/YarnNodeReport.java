package io.colocation.api.yarn;

/** YARN's allocation on one node as the ResourceManager sees it. */
public record YarnNodeReport(String nodeId, int allocatedVcores, long allocatedMemoryMB, int runningContainers,
        long reportedAtMillis) {
}
