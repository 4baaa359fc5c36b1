package io.colocation.yarn.plugin;

import io.colocation.api.yarn.YarnGrant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The grants this ResourceManager accepts, one per NodeManager, fenced by the broker's leader epoch: a
 * grant is accepted only if its epoch is not older than the fencing epoch (the highest seen in
 * {@code {root}/epoch} or in any accepted grant) and it supersedes the node's current grant. So a
 * deposed broker leader, still writing with its old epoch, cannot change any node's capacity. Grants with
 * negative figures never get here: the contract codec refuses them where they are read.
 */
final class GrantBook {
    enum Verdict { ACCEPTED, STALE_EPOCH, NOT_NEWER }

    private final Map<String, YarnGrant> grants = new ConcurrentHashMap<>();
    private long fencingEpoch;

    synchronized Verdict offer(YarnGrant grant) {
        if (grant.epoch() < fencingEpoch) {
            return Verdict.STALE_EPOCH;
        }
        YarnGrant current = grants.get(grant.nodeId());
        if (!grant.supersedes(current)) {
            return Verdict.NOT_NEWER;
        }
        fencingEpoch = Math.max(fencingEpoch, grant.epoch());
        grants.put(grant.nodeId(), grant);
        return Verdict.ACCEPTED;
    }

    /** The broker announced a new leader epoch: from now on older grants are ignored. */
    synchronized void raiseEpoch(long epoch) {
        fencingEpoch = Math.max(fencingEpoch, epoch);
    }

    synchronized long fencingEpoch() {
        return fencingEpoch;
    }

    Optional<YarnGrant> grant(String nodeId) {
        return Optional.ofNullable(grants.get(nodeId));
    }

    YarnGrant remove(String nodeId) {
        return grants.remove(nodeId);
    }
}
