package io.colocation.koordlet.qos.agent;

import io.colocation.koordlet.qos.Victim;
import java.util.Optional;

/** Carries out one eviction the strategies decided; returns why it could not, empty when done. */
public interface EvictionExecutor {
    /**
     * @param area   {@code memory} or {@code cpu}: memory pressure is acute (YARN containers are killed at once),
     *               CPU starvation is not
     * @param reason the strategy and its arithmetic, for the Event and the log
     */
    Optional<String> evict(Victim victim, String area, String strategy, String reason);
}
