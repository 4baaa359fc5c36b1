package io.colocation.api.yarn;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The CapacityScheduler's queues as the active ResourceManager has them: each queue's allocation and outstanding
 * requests in the default partition (a YARN leaf's demand in a tree over Batch) and the maximum it is configured with
 * and holds in effect; and which {@link YarnQueueLimits} document YARN took, or why it refused it, so the broker knows
 * a shrink is in force before it grows the other side. The first {@link #LIMIT} queues by path are listed.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class YarnQueues {
    public static final int LIMIT = 2000;

    private final Map<String, Queue> queues;
    private final int omitted;
    private final long limitsEpoch;
    private final long limitsVersion;
    private final String limitsProblem;
    private final long reportedAtMillis;

    /**
     * @param limitsEpoch   the epoch of the last limits document YARN took (0: none yet)
     * @param limitsVersion its version
     * @param limitsProblem why the newest limits document is not (all) in force, or null
     */
    @JsonCreator
    public YarnQueues(
            @JsonProperty("queues") Map<String, Queue> queues,
            @JsonProperty("omitted") int omitted,
            @JsonProperty("limitsEpoch") long limitsEpoch,
            @JsonProperty("limitsVersion") long limitsVersion,
            @JsonProperty("limitsProblem") String limitsProblem,
            @JsonProperty("reportedAtMillis") long reportedAtMillis) {
        Validation.notNegative("omitted", omitted);
        Validation.notNegative("limitsEpoch", limitsEpoch);
        Validation.notNegative("limitsVersion", limitsVersion);
        this.queues = queues == null ? Collections.<String, Queue>emptyMap() : Collections.unmodifiableMap(new TreeMap<>(queues));
        this.omitted = omitted;
        this.limitsEpoch = limitsEpoch;
        this.limitsVersion = limitsVersion;
        this.limitsProblem = limitsProblem;
        this.reportedAtMillis = reportedAtMillis;
    }

    /** Every queue under root by full path, leaves and the queues above them. */
    public Map<String, Queue> queues() {
        return queues;
    }

    public int omitted() {
        return omitted;
    }

    public long limitsEpoch() {
        return limitsEpoch;
    }

    public long limitsVersion() {
        return limitsVersion;
    }

    public String limitsProblem() {
        return limitsProblem;
    }

    public long reportedAtMillis() {
        return reportedAtMillis;
    }

    /** The same figures at another time: what counts as a change. */
    public YarnQueues at(long millis) {
        return new YarnQueues(queues, omitted, limitsEpoch, limitsVersion, limitsProblem, millis);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof YarnQueues)) {
            return false;
        }
        YarnQueues other = (YarnQueues) o;
        return queues.equals(other.queues) && omitted == other.omitted && limitsEpoch == other.limitsEpoch
                && limitsVersion == other.limitsVersion && Objects.equals(limitsProblem, other.limitsProblem)
                && reportedAtMillis == other.reportedAtMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(queues, omitted, limitsEpoch, limitsVersion, limitsProblem, reportedAtMillis);
    }

    @Override
    public String toString() {
        return "YarnQueues[" + queues + ", omitted=" + omitted + ", limits epoch " + limitsEpoch + " version "
                + limitsVersion + (limitsProblem == null ? "" : ", problem: " + limitsProblem) + "]";
    }

    /**
     * One queue: allocated and pending in the default partition; its configured absolute maximum (0 and 0 when it is
     * configured in percent) and the maximum YARN holds in effect for it.
     */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
            isGetterVisibility = JsonAutoDetect.Visibility.NONE)
    public static final class Queue {
        private final boolean leaf;
        private final int allocatedVcores;
        private final long allocatedMemoryMB;
        private final int pendingVcores;
        private final long pendingMemoryMB;
        private final int configuredMaximumVcores;
        private final long configuredMaximumMemoryMB;
        private final int effectiveMaximumVcores;
        private final long effectiveMaximumMemoryMB;

        @JsonCreator
        public Queue(
                @JsonProperty("leaf") boolean leaf,
                @JsonProperty("allocatedVcores") int allocatedVcores,
                @JsonProperty("allocatedMemoryMB") long allocatedMemoryMB,
                @JsonProperty("pendingVcores") int pendingVcores,
                @JsonProperty("pendingMemoryMB") long pendingMemoryMB,
                @JsonProperty("configuredMaximumVcores") int configuredMaximumVcores,
                @JsonProperty("configuredMaximumMemoryMB") long configuredMaximumMemoryMB,
                @JsonProperty("effectiveMaximumVcores") int effectiveMaximumVcores,
                @JsonProperty("effectiveMaximumMemoryMB") long effectiveMaximumMemoryMB) {
            Validation.notNegative("allocatedVcores", allocatedVcores);
            Validation.notNegative("allocatedMemoryMB", allocatedMemoryMB);
            Validation.notNegative("pendingVcores", pendingVcores);
            Validation.notNegative("pendingMemoryMB", pendingMemoryMB);
            Validation.notNegative("configuredMaximumVcores", configuredMaximumVcores);
            Validation.notNegative("configuredMaximumMemoryMB", configuredMaximumMemoryMB);
            Validation.notNegative("effectiveMaximumVcores", effectiveMaximumVcores);
            Validation.notNegative("effectiveMaximumMemoryMB", effectiveMaximumMemoryMB);
            this.leaf = leaf;
            this.allocatedVcores = allocatedVcores;
            this.allocatedMemoryMB = allocatedMemoryMB;
            this.pendingVcores = pendingVcores;
            this.pendingMemoryMB = pendingMemoryMB;
            this.configuredMaximumVcores = configuredMaximumVcores;
            this.configuredMaximumMemoryMB = configuredMaximumMemoryMB;
            this.effectiveMaximumVcores = effectiveMaximumVcores;
            this.effectiveMaximumMemoryMB = effectiveMaximumMemoryMB;
        }

        public boolean leaf() {
            return leaf;
        }

        public int allocatedVcores() {
            return allocatedVcores;
        }

        public long allocatedMemoryMB() {
            return allocatedMemoryMB;
        }

        public int pendingVcores() {
            return pendingVcores;
        }

        public long pendingMemoryMB() {
            return pendingMemoryMB;
        }

        public int configuredMaximumVcores() {
            return configuredMaximumVcores;
        }

        public long configuredMaximumMemoryMB() {
            return configuredMaximumMemoryMB;
        }

        public int effectiveMaximumVcores() {
            return effectiveMaximumVcores;
        }

        public long effectiveMaximumMemoryMB() {
            return effectiveMaximumMemoryMB;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Queue)) {
                return false;
            }
            Queue q = (Queue) o;
            return leaf == q.leaf && allocatedVcores == q.allocatedVcores && allocatedMemoryMB == q.allocatedMemoryMB
                    && pendingVcores == q.pendingVcores && pendingMemoryMB == q.pendingMemoryMB
                    && configuredMaximumVcores == q.configuredMaximumVcores
                    && configuredMaximumMemoryMB == q.configuredMaximumMemoryMB
                    && effectiveMaximumVcores == q.effectiveMaximumVcores
                    && effectiveMaximumMemoryMB == q.effectiveMaximumMemoryMB;
        }

        @Override
        public int hashCode() {
            return Objects.hash(leaf, allocatedVcores, allocatedMemoryMB, pendingVcores, pendingMemoryMB,
                    configuredMaximumVcores, configuredMaximumMemoryMB, effectiveMaximumVcores, effectiveMaximumMemoryMB);
        }

        @Override
        public String toString() {
            return (leaf ? "leaf" : "parent") + "[allocated " + YarnResourceUnits.absolute(allocatedMemoryMB, allocatedVcores)
                    + ", pending " + YarnResourceUnits.absolute(pendingMemoryMB, pendingVcores)
                    + ", maximum " + YarnResourceUnits.absolute(configuredMaximumMemoryMB, configuredMaximumVcores)
                    + " (in effect " + YarnResourceUnits.absolute(effectiveMaximumMemoryMB, effectiveMaximumVcores) + ")]";
        }
    }
}
