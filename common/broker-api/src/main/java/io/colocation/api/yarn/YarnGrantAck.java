package io.colocation.api.yarn;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
/** The plugin applied grant {@code epoch}/{@code version} to the node: the capacity YARN now schedules within. */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class YarnGrantAck {
    private final String nodeId;
    private final long epoch;
    private final long version;
    private final int vcores;
    private final long memoryMB;
    private final long appliedAtMillis;

    @JsonCreator
    public YarnGrantAck(
            @JsonProperty("nodeId") String nodeId,
            @JsonProperty("epoch") long epoch,
            @JsonProperty("version") long version,
            @JsonProperty("vcores") int vcores,
            @JsonProperty("memoryMB") long memoryMB,
            @JsonProperty("appliedAtMillis") long appliedAtMillis) {
        Validation.nodeId(nodeId);
        Validation.notNegative("vcores", vcores);
        Validation.notNegative("memoryMB", memoryMB);
        this.nodeId = nodeId;
        this.epoch = epoch;
        this.version = version;
        this.vcores = vcores;
        this.memoryMB = memoryMB;
        this.appliedAtMillis = appliedAtMillis;
    }

    public String nodeId() {
        return nodeId;
    }

    public long epoch() {
        return epoch;
    }

    public long version() {
        return version;
    }

    public int vcores() {
        return vcores;
    }

    public long memoryMB() {
        return memoryMB;
    }

    public long appliedAtMillis() {
        return appliedAtMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof YarnGrantAck)) {
            return false;
        }
        YarnGrantAck other = (YarnGrantAck) o;
        return java.util.Objects.equals(nodeId, other.nodeId)
                && epoch == other.epoch
                && version == other.version
                && vcores == other.vcores
                && memoryMB == other.memoryMB
                && appliedAtMillis == other.appliedAtMillis;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(nodeId, epoch, version, vcores, memoryMB, appliedAtMillis);
    }

    @Override
    public String toString() {
        return "YarnGrantAck[nodeId=" + nodeId
                + ", epoch=" + epoch
                + ", version=" + version
                + ", vcores=" + vcores
                + ", memoryMB=" + memoryMB
                + ", appliedAtMillis=" + appliedAtMillis + "]";
    }
}
