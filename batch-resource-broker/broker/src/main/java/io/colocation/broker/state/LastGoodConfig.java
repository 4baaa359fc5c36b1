package io.colocation.broker.state;

import java.util.Optional;

/**
 * Where the last {@code colocation-config} the broker accepted is kept, so a restarted or new leader
 * that finds the ConfigMap malformed goes on with it instead of Koordinator's defaults (which disable
 * colocation and would remove every node's Batch).
 */
public interface LastGoodConfig {

    /** The last accepted {@code colocation-config} JSON, empty when none was ever kept (or it cannot be read now). */
    Optional<String> load();

    /** Keeps {@code json} as the last accepted one; never blocks the caller. */
    void save(String json);
}
