package io.colocation.api.yarn;

/**
 * How much of a node YARN may schedule: the NodeManager's schedulable capacity the plugin applies.
 *
 * @param epoch   the broker leader's epoch when it issued the grant (fencing token)
 * @param version increases with every grant for this node within the epoch
 */
public record YarnGrant(String nodeId, long epoch, long version, int vcores, long memoryMB, long issuedAtMillis) {
    public YarnGrant {
        Validation.nodeId(nodeId);
        Validation.notNegative("epoch", epoch);
        Validation.notNegative("version", version);
        Validation.notNegative("vcores", vcores);
        Validation.notNegative("memoryMB", memoryMB);
    }


    /** Whether this grant supersedes {@code other} (a newer epoch, or the same epoch and a newer version). */
    public boolean supersedes(YarnGrant other) {
        return other == null || epoch > other.epoch || (epoch == other.epoch && version > other.version);
    }
}
