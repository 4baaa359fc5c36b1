package io.colocation.api.yarn;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
/**
 * How much of a node YARN may schedule: the NodeManager's schedulable capacity the plugin applies. The plugin
 * preempts what YARN holds above {@code max(grant, keep)}, per resource: a grant below what YARN holds with a
 * {@code keep} at that holding lets the scheduler place nothing more on the node (its freed room included) while
 * nothing running is preempted, which is how the broker holds YARN when Batch fell below use and the excess is not
 * (yet) to be taken back. {@code keep} is absent (0) in grants of brokers before it: everything above the grant is
 * preempted, as then.
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
    private final int keepVcores;
    private final long keepMemoryMB;

    /** A grant that keeps nothing above itself: YARN is preempted down to it. */
    public YarnGrant(String nodeId, long epoch, long version, int vcores, long memoryMB, long issuedAtMillis) {
        this(nodeId, epoch, version, vcores, memoryMB, issuedAtMillis, 0, 0);
    }

    public YarnGrant(String nodeId, long epoch, long version, int vcores, long memoryMB, long issuedAtMillis, int keepVcores,
            long keepMemoryMB) {
        Validation.nodeId(nodeId);
        Validation.notNegative("epoch", epoch);
        Validation.notNegative("version", version);
        Validation.notNegative("vcores", vcores);
        Validation.notNegative("memoryMB", memoryMB);
        Validation.notNegative("keepVcores", keepVcores);
        Validation.notNegative("keepMemoryMB", keepMemoryMB);
        this.keepVcores = keepVcores;
        this.keepMemoryMB = keepMemoryMB;
        this.nodeId = nodeId;
        this.epoch = epoch;
        this.version = version;
        this.vcores = vcores;
        this.memoryMB = memoryMB;
        this.issuedAtMillis = issuedAtMillis;
    }

    /** From JSON: the keep fields are absent from the grants of brokers before them. */
    @JsonCreator
    static YarnGrant fromJson(
            @JsonProperty("nodeId") String nodeId,
            @JsonProperty("epoch") long epoch,
            @JsonProperty("version") long version,
            @JsonProperty("vcores") int vcores,
            @JsonProperty("memoryMB") long memoryMB,
            @JsonProperty("issuedAtMillis") long issuedAtMillis,
            @JsonProperty("keepVcores") Integer keepVcores,
            @JsonProperty("keepMemoryMB") Long keepMemoryMB) {
        return new YarnGrant(nodeId, epoch, version, vcores, memoryMB, issuedAtMillis, keepVcores == null ? 0 : keepVcores,
                keepMemoryMB == null ? 0 : keepMemoryMB);
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

    /** Vcores YARN keeps on the node whatever the grant: nothing at or below it is preempted. */
    public int keepVcores() {
        return keepVcores;
    }

    /** Memory (MiB) YARN keeps on the node whatever the grant. */
    public long keepMemoryMB() {
        return keepMemoryMB;
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
                && issuedAtMillis == other.issuedAtMillis
                && keepVcores == other.keepVcores
                && keepMemoryMB == other.keepMemoryMB;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(nodeId, epoch, version, vcores, memoryMB, issuedAtMillis, keepVcores, keepMemoryMB);
    }

    @Override
    public String toString() {
        return "YarnGrant[nodeId=" + nodeId
                + ", epoch=" + epoch
                + ", version=" + version
                + ", vcores=" + vcores
                + ", memoryMB=" + memoryMB
                + ", issuedAtMillis=" + issuedAtMillis
                + ", keepVcores=" + keepVcores
                + ", keepMemoryMB=" + keepMemoryMB + "]";
    }

    /** Whether this grant supersedes {@code other} (a newer epoch, or the same epoch and a newer version). */
    public boolean supersedes(YarnGrant other) {
        return other == null || epoch > other.epoch || (epoch == other.epoch && version > other.version);
    }
}
