package io.colocation.broker.arbitration;

/** How a node's Batch is shared between the Kubernetes and the YARN scheduler. */
public enum GrantPolicy {
    /**
     * Default: the free headroom is split between the sides, so the two grants never add up to more than
     * origin; grants shrink first and grow only into room the other side has acknowledged giving up.
     */
    PARTITIONED,
    /**
     * Koordinator's: Kubernetes sees {@code origin - yarnUsed}, YARN sees {@code origin - k8sUsed}; both can
     * claim the same free capacity between syncs, and the overcommit is counted.
     */
    SHARED
}
