package io.colocation.copilot.api;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What a kill request did: the containers killed ({@code items}, as Koordinator's {@code KillInfo}), how
 * much they free (vcores, memory MiB) and why they were chosen.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class KillResult {
    private final List<ContainerInfo> items;
    private final long freedVcores;
    private final long freedMemoryMB;
    private final String reason;

    @JsonCreator
    public KillResult(
            @JsonProperty("items") List<ContainerInfo> items,
            @JsonProperty("freedVcores") long freedVcores,
            @JsonProperty("freedMemoryMB") long freedMemoryMB,
            @JsonProperty("reason") String reason) {
        this.items = items;
        this.freedVcores = freedVcores;
        this.freedMemoryMB = freedMemoryMB;
        this.reason = reason;
    }

    public List<ContainerInfo> items() {
        return items;
    }

    public long freedVcores() {
        return freedVcores;
    }

    public long freedMemoryMB() {
        return freedMemoryMB;
    }

    public String reason() {
        return reason;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof KillResult)) {
            return false;
        }
        KillResult other = (KillResult) o;
        return java.util.Objects.equals(items, other.items)
                && freedVcores == other.freedVcores
                && freedMemoryMB == other.freedMemoryMB
                && java.util.Objects.equals(reason, other.reason);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(items, freedVcores, freedMemoryMB, reason);
    }

    @Override
    public String toString() {
        return "KillResult[items=" + items
                + ", freedVcores=" + freedVcores
                + ", freedMemoryMB=" + freedMemoryMB
                + ", reason=" + reason + "]";
    }
}
