package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import io.colocation.api.PriorityClass;
import io.colocation.api.QoSClass;

/**
 * What the calculation needs of one pod on the node: its key, whether it is Running or Pending (others
 * are ignored), its resolved Koordinator priority and QoS classes, and its effective request.
 */
public record PodState(String namespace, String name, boolean runningOrPending, PriorityClass priority, QoSClass qos,
        Resources request) {

    /** Matches a pod with its metric; a record, so the names' cached hashes are reused every pass. */
    public PodKey key() {
        return new PodKey(namespace, name);
    }
}
