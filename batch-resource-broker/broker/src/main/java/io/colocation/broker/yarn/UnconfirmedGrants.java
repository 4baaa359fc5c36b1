package io.colocation.broker.yarn;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.yarn.YarnSide.Usage;
import java.util.ArrayDeque;
import java.util.Deque;
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
 *
 * <p>Reading changes nothing: {@link #peak} works out what YARN's latest confirmation settles each time; a publication
 * drops the grants that confirmation settled, so the list stays short.
 */
final class UnconfirmedGrants {
    /** Beyond this, the two oldest merge into one (the later version, the larger figures): safe, only less precise. */
    static final int MAX_PER_NODE = 32;

    /** What YARN last confirmed of a node's grants. */
    interface Confirmation {
        /** YARN has confirmed nothing the broker can match. */
        Confirmation NONE = grants -> Long.MIN_VALUE;

        /** The newest version among {@code grants} it settles (with every earlier one); {@code Long.MIN_VALUE}: none. */
        long settledThrough(Iterable<YarnGrant> grants);

        /** YARN confirmed applying version {@code version} (the plugin's acknowledgement): it and every earlier one. */
        static Confirmation version(long version) {
            return grants -> version;
        }

        /**
         * YARN reports the node's capacity without a version (the RM admin route): the newest grant with those figures
         * and every earlier one. A capacity no unconfirmed grant has settles nothing.
         */
        static Confirmation capacity(int vcores, long memoryMB) {
            return grants -> {
                long newest = Long.MIN_VALUE;
                for (YarnGrant g : grants) {
                    if (g.vcores() == vcores && g.memoryMB() == memoryMB) {
                        newest = g.version();
                    }
                }
                return newest;
            };
        }
    }

    private final Map<String, Deque<YarnGrant>> byNode = new ConcurrentHashMap<>();

    /** A grant just published; {@code confirmed} what YARN confirmed so far, whose settled grants are dropped. */
    void published(YarnGrant grant, Confirmation confirmed) {
        Deque<YarnGrant> grants = byNode.computeIfAbsent(grant.nodeId(), n -> new ArrayDeque<>());
        synchronized (grants) {
            long settled = confirmed.settledThrough(grants);
            while (!grants.isEmpty() && grants.peekFirst().version() <= settled) {
                grants.pollFirst();
            }
            grants.addLast(grant);
            if (grants.size() > MAX_PER_NODE) {
                YarnGrant a = grants.pollFirst();
                YarnGrant b = grants.pollFirst();
                grants.addFirst(new YarnGrant(b.nodeId(), b.epoch(), b.version(), Math.max(a.vcores(), b.vcores()),
                        Math.max(a.memoryMB(), b.memoryMB()), b.issuedAtMillis(), b.keepVcores(), b.keepMemoryMB()));
            }
        }
    }

    /**
     * The largest figures (each resource on its own) among the node's grants {@code confirmed} does not settle, empty
     * when there are none.
     */
    Optional<Usage> peak(String nodeId, Confirmation confirmed) {
        Deque<YarnGrant> grants = byNode.get(nodeId);
        if (grants == null) {
            return Optional.empty();
        }
        synchronized (grants) {
            long settled = confirmed.settledThrough(grants);
            int vcores = 0;
            long memoryMB = 0;
            boolean any = false;
            for (YarnGrant g : grants) {
                if (g.version() > settled) {
                    any = true;
                    vcores = Math.max(vcores, g.vcores());
                    memoryMB = Math.max(memoryMB, g.memoryMB());
                }
            }
            return any ? Optional.of(new Usage(vcores, memoryMB)) : Optional.empty();
        }
    }
}
