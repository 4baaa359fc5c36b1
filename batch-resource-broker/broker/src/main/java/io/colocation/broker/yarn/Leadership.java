package io.colocation.broker.yarn;

import java.util.Optional;

/** Whether this replica leads, and the fence its writes carry ({@link LeaderEpoch}; tests use a fixed one). */
public interface Leadership {

    /** This replica's fence while it leads; empty when it does not. */
    Optional<LeaderEpoch.Fence> fence();
}
