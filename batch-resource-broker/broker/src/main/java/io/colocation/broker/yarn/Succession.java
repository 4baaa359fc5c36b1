package io.colocation.broker.yarn;

import java.util.List;

/**
 * Who is next in line for the broker's leadership: the newest replica. A replica joins the election with an id that
 * names it and when it started ({@code <replica id>@<epoch millis>}); a standby that finds a replica started after it
 * queued behind it joins again, at the end. The line so becomes newest first, and a rolling update (which stops the
 * old replicas, one by one) hands the leadership over once, to a new replica. A pure function of the election's
 * participants, in their order.
 */
public final class Succession {
    private static final char SEPARATOR = '@';

    private Succession() {
    }

    public static String participantId(String replicaId, long startedAtMillis) {
        return replicaId + SEPARATOR + startedAtMillis;
    }

    /** The replica an id names (an id without a start time, of an earlier broker, is the replica id itself). */
    public static String replicaId(String participantId) {
        return suffixMillis(participantId) >= 0 ? participantId.substring(0, participantId.lastIndexOf(SEPARATOR)) : participantId;
    }

    /** When the replica started; 0 for an earlier broker's id (the oldest possible). */
    static long startedAt(String participantId) {
        return Math.max(0, suffixMillis(participantId));
    }

    private static long suffixMillis(String participantId) {
        int at = participantId.lastIndexOf(SEPARATOR);
        String millis = at <= 0 ? "" : participantId.substring(at + 1);
        return millis.matches("\\d{1,18}") ? Long.parseLong(millis) : -1;
    }

    /**
     * @param participants the election's participant ids in line order (the leader first)
     * @param self this replica's id, a standby's
     * @return whether a replica started after this one stands behind it in line
     */
    public static boolean shouldRejoin(List<String> participants, String self) {
        int position = participants.indexOf(self);
        if (position <= 0) {
            return false; // not in line (yet), or leading
        }
        long started = startedAt(self);
        for (String behind : participants.subList(position + 1, participants.size())) {
            if (startedAt(behind) > started) {
                return true;
            }
        }
        return false;
    }
}
