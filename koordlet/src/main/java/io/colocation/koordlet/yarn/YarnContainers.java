package io.colocation.koordlet.yarn;

import io.colocation.koordlet.collect.CollectTargets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The host's YARN containers as the agent sees them: the running list and the kill of one. On a host the
 * NodeManager's copilot answers ({@link CopilotListing}); a simulated host answers from its NodeManager simulator.
 */
public interface YarnContainers {
    /** The running containers while the list is current; empty while it is unknown (never a stale list). */
    Optional<List<CollectTargets.YarnTarget>> current();

    /** Asks for a fresh list; the agent calls it every {@code refreshSeconds} on a thread of its own. */
    void refresh();

    /** Where the list comes from, for the start-up log and the status endpoint. */
    String describe();

    /** What cannot be read now, by subject. */
    Map<String, String> problems();

    /** Claims refused since the start, by kind. */
    Map<String, Long> refusals();

    /** Whether the process descends from the verified NodeManager now: only such a process is moved into a YARN cgroup. */
    boolean ownedByNodeManager(int pid);

    /** Kills the container at once (acute memory pressure); empty when asked, else why not. */
    Optional<String> kill(String containerID, String reason);
}
