package io.colocation.api.yarn;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
/**
 * How much of a node YARN may schedule: the NodeManager's schedulable capacity the plugin applies.
 *
 * @param epoch   the broker leader's epoch when it issued the grant (fencing token)
 * @param version increases with every grant for this node within the epoch
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class YarnGrant {
    private final String nodeId;
    private final long epoch;
    private final long version;
    private final int vcores;
    private final long memoryMB;
    private final long issuedAtMillis;

    @JsonCreator
    public YarnGrant(
            @JsonProperty("nodeId") String nodeId,
            @JsonProperty("epoch") long epoch,
            @JsonProperty("version") long version,
            @JsonProperty("vcores") int vcores,
            @JsonProperty("memoryMB") long memoryMB,
            @JsonProperty("issuedAtMillis") long issuedAtMillis) {
        Validation.nodeId(nodeId);
        Validation.notNegative("epoch", epoch);
        Validation.notNegative("version", version);
        Validation.notNegative("vcores", vcores);
        Validation.notNegative("memoryMB", memoryMB);
        this.nodeId = nodeId;
        this.epoch = epoch;
        this.version = version;
        this.vcores = vcores;
        this.memoryMB = memoryMB;
        this.issuedAtMillis = issuedAtMillis;
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

    public long issuedAtMillis() {
        return issuedAtMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof YarnGrant)) {
            return false;
        }
        YarnGrant other = (YarnGrant) o;
        return java.util.Objects.equals(nodeId, other.nodeId)
                && epoch == other.epoch
                && version == other.version
                && vcores == other.vcores
                && memoryMB == other.memoryMB
                && issuedAtMillis == other.issuedAtMillis;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(nodeId, epoch, version, vcores, memoryMB, issuedAtMillis);
    }

    @Override
    public String toString() {
        return "YarnGrant[nodeId=" + nodeId
                + ", epoch=" + epoch
                + ", version=" + version
                + ", vcores=" + vcores
                + ", memoryMB=" + memoryMB
                + ", issuedAtMillis=" + issuedAtMillis + "]";
    }

    /** Whether this grant supersedes {@code other} (a newer epoch, or the same epoch and a newer version). */
    public boolean supersedes(YarnGrant other) {
        return other == null || epoch > other.epoch || (epoch == other.epoch && version > other.version);
    }
}
