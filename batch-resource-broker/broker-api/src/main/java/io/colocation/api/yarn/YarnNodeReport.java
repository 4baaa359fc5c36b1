package io.colocation.api.yarn;

/** YARN's allocation on one node as the ResourceManager sees it. */
public record YarnNodeReport(String nodeId, int allocatedVcores, long allocatedMemoryMB, int runningContainers,
        long reportedAtMillis) {
    public YarnNodeReport {
        Validation.nodeId(nodeId);
        Validation.notNegative("allocatedVcores", allocatedVcores);
        Validation.notNegative("allocatedMemoryMB", allocatedMemoryMB);
        Validation.notNegative("runningContainers", runningContainers);
    }
}
