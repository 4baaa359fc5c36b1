package io.colocation.broker.decision;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.model.Resources;

/**
 * What one YARN cluster says of one NodeManager in a pass, read once (in milli-cores and bytes): what YARN
 * uses there, the capacity it confirmed applying (null: none yet), the largest of the grants published after that one
 * (null: none, it confirmed the newest), whether its report is fresh, the cluster's pending demand and the grant
 * persisted for the NodeManager (null: never granted).
 */
public record YarnFacts(String clusterId, String nodeId, Resources used, Resources applied, Resources unconfirmed, boolean reachable,
        Resources demand, YarnGrant persisted) {

    /** The largest capacity YARN may still enforce besides the newest grant: the one it confirmed or one published since. */
    public Resources inForce() {
        return applied == null ? unconfirmed : unconfirmed == null ? applied : applied.max(unconfirmed);
    }

    /** The persisted grant's version, null when never granted (how a pass notices a grant written by another replica). */
    public Long grantVersion() {
        return persisted == null ? null : persisted.version();
    }
}
