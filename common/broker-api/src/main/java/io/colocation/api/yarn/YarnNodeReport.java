package io.colocation.api.yarn;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
/** YARN's allocation on one node as the ResourceManager sees it. */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class YarnNodeReport {
    private final String nodeId;
    private final int allocatedVcores;
    private final long allocatedMemoryMB;
    private final int runningContainers;
    private final long reportedAtMillis;

    @JsonCreator
    public YarnNodeReport(
            @JsonProperty("nodeId") String nodeId,
            @JsonProperty("allocatedVcores") int allocatedVcores,
            @JsonProperty("allocatedMemoryMB") long allocatedMemoryMB,
            @JsonProperty("runningContainers") int runningContainers,
            @JsonProperty("reportedAtMillis") long reportedAtMillis) {
        Validation.nodeId(nodeId);
        Validation.notNegative("allocatedVcores", allocatedVcores);
        Validation.notNegative("allocatedMemoryMB", allocatedMemoryMB);
        Validation.notNegative("runningContainers", runningContainers);
        this.nodeId = nodeId;
        this.allocatedVcores = allocatedVcores;
        this.allocatedMemoryMB = allocatedMemoryMB;
        this.runningContainers = runningContainers;
        this.reportedAtMillis = reportedAtMillis;
    }

    public String nodeId() {
        return nodeId;
    }

    public int allocatedVcores() {
        return allocatedVcores;
    }

    public long allocatedMemoryMB() {
        return allocatedMemoryMB;
    }

    public int runningContainers() {
        return runningContainers;
    }

    public long reportedAtMillis() {
        return reportedAtMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof YarnNodeReport)) {
            return false;
        }
        YarnNodeReport other = (YarnNodeReport) o;
        return java.util.Objects.equals(nodeId, other.nodeId)
                && allocatedVcores == other.allocatedVcores
                && allocatedMemoryMB == other.allocatedMemoryMB
                && runningContainers == other.runningContainers
                && reportedAtMillis == other.reportedAtMillis;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(nodeId, allocatedVcores, allocatedMemoryMB, runningContainers, reportedAtMillis);
    }

    @Override
    public String toString() {
        return "YarnNodeReport[nodeId=" + nodeId
                + ", allocatedVcores=" + allocatedVcores
                + ", allocatedMemoryMB=" + allocatedMemoryMB
                + ", runningContainers=" + runningContainers
                + ", reportedAtMillis=" + reportedAtMillis + "]";
    }
}
