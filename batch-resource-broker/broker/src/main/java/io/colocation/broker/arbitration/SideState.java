package io.colocation.broker.arbitration;

import io.colocation.model.Resources;

/**
 * What the broker knows of one side (Kubernetes or YARN) on one node.
 *
 * @param used         batch resources the side has allocated there
 * @param demand       the side's pending demand (drives the split of free headroom)
 * @param published    the grant last published to the side
 * @param acknowledged the grant the side last confirmed applying (Kubernetes: the node status write was
 *                     accepted; YARN: the plugin's ack or the RM's node report), null if none yet
 * @param reachable    the side answered recently; an unreachable side keeps its grant
 */
public record SideState(Resources used, Resources demand, Resources published, Resources acknowledged, boolean reachable) {

    /** The largest limit the side may still be enforcing: until it acknowledges a shrink, the old grant. */
    Resources effectiveLimit() {
        return acknowledged == null ? published : published.max(acknowledged);
    }
}
