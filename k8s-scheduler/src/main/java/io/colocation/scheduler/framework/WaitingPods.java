package io.colocation.scheduler.framework;

import java.util.List;

/** The pods reserved on a node and waiting at Permit; a plugin lets them go on to binding or rejects them. */
public interface WaitingPods {
    /** A pod waiting at Permit and the node it is reserved on. */
    record Waiting(PodInfo pod, String node) {
    }

    List<Waiting> list();

    /** The pod goes on to binding; false if it was not waiting (any more). */
    boolean allow(String podKey);

    /** The pod's reservation is released and it is tried again later; false if it was not waiting. */
    boolean reject(String podKey, String reason);
}
