package io.colocation.koordlet.qos.agent;

import io.colocation.koordlet.qos.Victim;
import io.colocation.model.node.YarnRelease;
import java.util.Optional;

/** Carries out what the eviction strategies decided; each call returns why it could not, empty when done. */
public interface EvictionExecutor {
    /**
     * Evicts a pod, or kills a YARN container at once (memory pressure is acute).
     *
     * @param area   {@code memory} or {@code cpu}
     * @param reason the strategy and its arithmetic, for the Event and the log
     */
    Optional<String> evict(Victim victim, String area, String strategy, String reason);

    /** The graceful route for YARN containers chosen for CPU: asks the broker to hold YARN's grant at the release's limit. */
    Optional<String> releaseYarn(YarnRelease release);
}
