package io.colocation.broker.yarn;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.yarn.YarnSide.Usage;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The grants this replica published for each node that YARN has not confirmed yet. YARN applies grants in order, each
 * a moment after it is published (the ResourceManager's event queue can be seconds long under load), so until it
 * confirms one it may still enforce any grant published after the one it confirmed last: a grow followed at once by a
 * shrink leaves it on the grow for a while. The broker counts on the largest of them, not only the newest, before it
 * gives the other side room. A new leader knows only the persisted (newest) grant; what its predecessor published in
 * the last moments before it was deposed is not tracked.
 */
final class UnconfirmedGrants {
    /** Beyond this, the two oldest merge into one (the later version, the larger figures): safe, only less precise. */
    static final int MAX_PER_NODE = 32;

    private final Map<String, Deque<YarnGrant>> byNode = new ConcurrentHashMap<>();

    void published(YarnGrant grant) {
        Deque<YarnGrant> grants = byNode.computeIfAbsent(grant.nodeId(), n -> new ArrayDeque<>());
        synchronized (grants) {
            grants.addLast(grant);
            if (grants.size() > MAX_PER_NODE) {
                YarnGrant a = grants.pollFirst();
                YarnGrant b = grants.pollFirst();
                grants.addFirst(new YarnGrant(b.nodeId(), b.epoch(), b.version(), Math.max(a.vcores(), b.vcores()),
                        Math.max(a.memoryMB(), b.memoryMB()), b.issuedAtMillis(), b.keepVcores(), b.keepMemoryMB()));
            }
        }
    }

    /** YARN confirmed applying version {@code version} of the node's grants: it and every earlier one are settled. */
    void confirmedVersion(String nodeId, long version) {
        Deque<YarnGrant> grants = byNode.get(nodeId);
        if (grants == null) {
            return;
        }
        synchronized (grants) {
            while (!grants.isEmpty() && grants.peekFirst().version() <= version) {
                grants.pollFirst();
            }
        }
    }

    /**
     * YARN reports the node's capacity without a version (the RM admin route): the newest grant with those figures and
     * every earlier one are settled. A capacity no unconfirmed grant has settles nothing.
     */
    void confirmedCapacity(String nodeId, int vcores, long memoryMB) {
        Deque<YarnGrant> grants = byNode.get(nodeId);
        if (grants == null) {
            return;
        }
        synchronized (grants) {
            long newest = Long.MIN_VALUE;
            for (YarnGrant g : grants) {
                if (g.vcores() == vcores && g.memoryMB() == memoryMB) {
                    newest = g.version();
                }
            }
            for (Iterator<YarnGrant> it = grants.iterator(); it.hasNext() && newest != Long.MIN_VALUE; ) {
                if (it.next().version() <= newest) {
                    it.remove();
                }
            }
        }
    }

    /** The largest figures (each resource on its own) among the node's unconfirmed grants, empty when there are none. */
    Optional<Usage> peak(String nodeId) {
        Deque<YarnGrant> grants = byNode.get(nodeId);
        if (grants == null) {
            return Optional.empty();
        }
        synchronized (grants) {
            if (grants.isEmpty()) {
                return Optional.empty();
            }
            int vcores = 0;
            long memoryMB = 0;
            for (YarnGrant g : grants) {
                vcores = Math.max(vcores, g.vcores());
                memoryMB = Math.max(memoryMB, g.memoryMB());
            }
            return Optional.of(new Usage(vcores, memoryMB));
        }
    }
}
