package io.colocation.api.yarn;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * Outstanding YARN resource requests: cluster-wide, and per node partition (label; "" is the default
 * partition).
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class YarnDemand {
    private final int pendingVcores;
    private final long pendingMemoryMB;
    private final Map<String, Partition> partitions;
    private final long reportedAtMillis;

    @JsonCreator
    public YarnDemand(
            @JsonProperty("pendingVcores") int pendingVcores,
            @JsonProperty("pendingMemoryMB") long pendingMemoryMB,
            @JsonProperty("partitions") Map<String, Partition> partitions,
            @JsonProperty("reportedAtMillis") long reportedAtMillis) {
        Validation.notNegative("pendingVcores", pendingVcores);
        Validation.notNegative("pendingMemoryMB", pendingMemoryMB);
        this.pendingVcores = pendingVcores;
        this.pendingMemoryMB = pendingMemoryMB;
        this.partitions = partitions;
        this.reportedAtMillis = reportedAtMillis;
    }

    public int pendingVcores() {
        return pendingVcores;
    }

    public long pendingMemoryMB() {
        return pendingMemoryMB;
    }

    public Map<String, Partition> partitions() {
        return partitions;
    }

    public long reportedAtMillis() {
        return reportedAtMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof YarnDemand)) {
            return false;
        }
        YarnDemand other = (YarnDemand) o;
        return pendingVcores == other.pendingVcores
                && pendingMemoryMB == other.pendingMemoryMB
                && java.util.Objects.equals(partitions, other.partitions)
                && reportedAtMillis == other.reportedAtMillis;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(pendingVcores, pendingMemoryMB, partitions, reportedAtMillis);
    }

    @Override
    public String toString() {
        return "YarnDemand[pendingVcores=" + pendingVcores
                + ", pendingMemoryMB=" + pendingMemoryMB
                + ", partitions=" + partitions
                + ", reportedAtMillis=" + reportedAtMillis + "]";
    }

    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
            isGetterVisibility = JsonAutoDetect.Visibility.NONE)
    public static final class Partition {
        private final int pendingVcores;
        private final long pendingMemoryMB;

        @JsonCreator
        public Partition(
                @JsonProperty("pendingVcores") int pendingVcores,
                @JsonProperty("pendingMemoryMB") long pendingMemoryMB) {
            Validation.notNegative("pendingVcores", pendingVcores);
            Validation.notNegative("pendingMemoryMB", pendingMemoryMB);
            this.pendingVcores = pendingVcores;
            this.pendingMemoryMB = pendingMemoryMB;
        }

        public int pendingVcores() {
            return pendingVcores;
        }

        public long pendingMemoryMB() {
            return pendingMemoryMB;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof Partition)) {
                return false;
            }
            Partition other = (Partition) o;
            return pendingVcores == other.pendingVcores
                    && pendingMemoryMB == other.pendingMemoryMB;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(pendingVcores, pendingMemoryMB);
        }

        @Override
        public String toString() {
            return "Partition[pendingVcores=" + pendingVcores
                    + ", pendingMemoryMB=" + pendingMemoryMB + "]";
        }
    }
}
