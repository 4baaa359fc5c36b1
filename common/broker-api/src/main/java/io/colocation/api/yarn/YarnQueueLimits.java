package io.colocation.api.yarn;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The CapacityScheduler limits of the YARN queues of a tree over Batch (docs/quota.md): for each queue, by its full
 * path, the absolute {@code capacity} and {@code maximum-capacity} the plugin makes YARN's own configuration. The
 * broker writes the whole set at once; the plugin applies a document only if its epoch is not older than the highest
 * epoch it has seen, and a version only once. A queue that holds more than its maximum for {@code revokeAfterMillis}
 * (the tree's revoke delay, Koordinator's {@code delayEvictTime}) has the excess preempted gracefully; -1: never.
 *
 * @param version increases with every document within the epoch
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class YarnQueueLimits {
    private final long epoch;
    private final long version;
    private final Map<String, Limit> queues;
    private final long revokeAfterMillis;
    private final long writtenAtMillis;

    @JsonCreator
    public YarnQueueLimits(
            @JsonProperty("epoch") long epoch,
            @JsonProperty("version") long version,
            @JsonProperty("queues") Map<String, Limit> queues,
            @JsonProperty("revokeAfterMillis") long revokeAfterMillis,
            @JsonProperty("writtenAtMillis") long writtenAtMillis) {
        Validation.notNegative("epoch", epoch);
        Validation.notNegative("version", version);
        if (revokeAfterMillis < -1) {
            throw new IllegalArgumentException("revokeAfterMillis " + revokeAfterMillis + " is neither -1 (never) nor a delay");
        }
        Map<String, Limit> copy = new TreeMap<>();
        if (queues != null) {
            for (Map.Entry<String, Limit> e : queues.entrySet()) {
                if (e.getKey() == null || !e.getKey().startsWith("root.") || e.getValue() == null) {
                    throw new IllegalArgumentException("queue '" + e.getKey() + "' is not a queue path under root with a limit");
                }
                copy.put(e.getKey(), e.getValue());
            }
        }
        this.epoch = epoch;
        this.version = version;
        this.queues = Collections.unmodifiableMap(copy);
        this.revokeAfterMillis = revokeAfterMillis;
        this.writtenAtMillis = writtenAtMillis;
    }

    public long epoch() {
        return epoch;
    }

    public long version() {
        return version;
    }

    /** The limit of each queue, by full path ({@code root.team-a}). */
    public Map<String, Limit> queues() {
        return queues;
    }

    /** How long a queue may hold more than its maximum before the excess is preempted; -1: never. */
    public long revokeAfterMillis() {
        return revokeAfterMillis;
    }

    public long writtenAtMillis() {
        return writtenAtMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof YarnQueueLimits)) {
            return false;
        }
        YarnQueueLimits other = (YarnQueueLimits) o;
        return epoch == other.epoch && version == other.version && queues.equals(other.queues)
                && revokeAfterMillis == other.revokeAfterMillis && writtenAtMillis == other.writtenAtMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(epoch, version, queues, revokeAfterMillis, writtenAtMillis);
    }

    @Override
    public String toString() {
        return "YarnQueueLimits[epoch=" + epoch + ", version=" + version + ", queues=" + queues + ", revokeAfterMillis="
                + revokeAfterMillis + "]";
    }

    /** A queue's absolute capacity (its guarantee) and maximum capacity, in vcores and MiB; capacity never above maximum. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
            isGetterVisibility = JsonAutoDetect.Visibility.NONE)
    public static final class Limit {
        private final int capacityVcores;
        private final long capacityMemoryMB;
        private final int maximumVcores;
        private final long maximumMemoryMB;

        @JsonCreator
        public Limit(
                @JsonProperty("capacityVcores") int capacityVcores,
                @JsonProperty("capacityMemoryMB") long capacityMemoryMB,
                @JsonProperty("maximumVcores") int maximumVcores,
                @JsonProperty("maximumMemoryMB") long maximumMemoryMB) {
            Validation.notNegative("capacityVcores", capacityVcores);
            Validation.notNegative("capacityMemoryMB", capacityMemoryMB);
            Validation.notNegative("maximumVcores", maximumVcores);
            Validation.notNegative("maximumMemoryMB", maximumMemoryMB);
            if (capacityVcores > maximumVcores || capacityMemoryMB > maximumMemoryMB) {
                throw new IllegalArgumentException("capacity [memory=" + capacityMemoryMB + ",vcores=" + capacityVcores
                        + "] is above maximum [memory=" + maximumMemoryMB + ",vcores=" + maximumVcores + "]");
            }
            this.capacityVcores = capacityVcores;
            this.capacityMemoryMB = capacityMemoryMB;
            this.maximumVcores = maximumVcores;
            this.maximumMemoryMB = maximumMemoryMB;
        }

        public int capacityVcores() {
            return capacityVcores;
        }

        public long capacityMemoryMB() {
            return capacityMemoryMB;
        }

        public int maximumVcores() {
            return maximumVcores;
        }

        public long maximumMemoryMB() {
            return maximumMemoryMB;
        }

        /** {@code yarn.scheduler.capacity.<queue>.capacity} in CapacityScheduler's absolute form, {@code [memory=…,vcores=…]}. */
        public String capacity() {
            return YarnResourceUnits.absolute(capacityMemoryMB, capacityVcores);
        }

        /** {@code yarn.scheduler.capacity.<queue>.maximum-capacity} in the absolute form. */
        public String maximumCapacity() {
            return YarnResourceUnits.absolute(maximumMemoryMB, maximumVcores);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Limit)) {
                return false;
            }
            Limit other = (Limit) o;
            return capacityVcores == other.capacityVcores && capacityMemoryMB == other.capacityMemoryMB
                    && maximumVcores == other.maximumVcores && maximumMemoryMB == other.maximumMemoryMB;
        }

        @Override
        public int hashCode() {
            return Objects.hash(capacityVcores, capacityMemoryMB, maximumVcores, maximumMemoryMB);
        }

        @Override
        public String toString() {
            return "Limit[capacity=" + capacity() + ", maximum-capacity=" + maximumCapacity() + "]";
        }
    }
}
