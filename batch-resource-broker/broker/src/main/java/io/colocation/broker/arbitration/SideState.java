package io.colocation.broker.arbitration;

import io.colocation.model.Resources;

/**
 * What the broker knows of one side (Kubernetes or YARN) on one node.
 *
 * @param used         batch resources the side has allocated there
 * @param demand       the side's pending demand (drives the split of free headroom)
 * @param published    the grant last published to the side
 * @param inForce      the largest grant besides {@code published} the side may still be enforcing, null if none:
 *                     Kubernetes a grant shrunk moments ago (bindings decided on it may still land), YARN what it last
 *                     confirmed applying or any grant published after that one
 * @param reachable    the side answered recently; an unreachable side keeps its grant
 */
public record SideState(Resources used, Resources demand, Resources published, Resources inForce, boolean reachable) {

    /** The largest limit the side may still be enforcing: until it confirms a shrink, the old grant. */
    Resources effectiveLimit() {
        return inForce == null ? published : published.max(inForce);
    }
}
