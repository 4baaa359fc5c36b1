package io.colocation.koordlet.qos;

/**
 * A running YARN container of the node's NodeManager: BE work in the same tier as BE pods.
 *
 * @param applicationPriority the application's YARN priority (higher = more important)
 * @param applicationMaster   the application's AM container: evicted last, as losing it loses the whole attempt
 */
public record YarnContainerState(String id, int applicationPriority, boolean applicationMaster, long cpuMilli,
        long memoryBytes, Long cpuUsedMilli, Long memoryUsedBytes) {

    /** Koordinator priority of a YARN container: in the koord-batch range, ordered by application priority. */
    public int priority() {
        return 5000 + Math.max(0, Math.min(999, applicationPriority));
    }
}
