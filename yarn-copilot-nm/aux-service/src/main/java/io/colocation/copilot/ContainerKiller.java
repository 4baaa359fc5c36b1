package io.colocation.copilot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a container's whole process tree: SIGTERM to every process, then SIGKILL to whatever is still
 * alive after the grace period. Never signals this JVM (the NodeManager), its ancestors, or init.
 */
final class ContainerKiller {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerKiller.class);

    /** What happened to one container's processes. */
    record Outcome(List<Integer> terminated, List<Integer> forciblyKilled) {
    }

    private final Path proc;
    private final long graceMillis;
    private final Set<Long> protectedPids = new HashSet<>();

    ContainerKiller(Path proc, long graceMillis) {
        this.proc = proc;
        this.graceMillis = graceMillis;
        protectedPids.add(1L);
        Optional<ProcessHandle> p = Optional.of(ProcessHandle.current());
        while (p.isPresent()) {
            protectedPids.add(p.get().pid());
            p = p.get().parent();
        }
    }

    Outcome kill(String containerId, int rootPid, String reason) {
        return kill(Map.of(containerId, rootPid), reason).get(containerId);
    }

    /**
     * Kills several containers together: one read of /proc, SIGTERM to every process of every tree, one
     * grace period for all of them, then SIGKILL to what is left, so freeing N containers takes one grace
     * period, not N.
     */
    Map<String, Outcome> kill(Map<String, Integer> rootPidByContainer, String reason) {
        ProcessTable table = ProcessTable.read(proc);
        Map<String, List<ProcessHandle>> targets = new LinkedHashMap<>();
        rootPidByContainer.forEach((containerId, rootPid) -> {
            List<ProcessHandle> tree = new ArrayList<>();
            for (int pid : table.treeOf(rootPid)) {
                if (protectedPids.contains((long) pid)) {
                    LOG.warn("not signalling pid {} of container {}: it is the NodeManager or one of its ancestors", pid, containerId);
                    continue;
                }
                ProcessHandle.of(pid).ifPresent(tree::add);
            }
            targets.put(containerId, tree);
        });
        Map<String, List<Integer>> terminated = new LinkedHashMap<>();
        targets.forEach((containerId, tree) -> {
            List<Integer> signalled = new ArrayList<>();
            for (ProcessHandle h : tree) {
                if (h.destroy()) {
                    signalled.add((int) h.pid());
                }
            }
            terminated.put(containerId, signalled);
        });
        long deadline = System.nanoTime() + graceMillis * 1_000_000L;
        while (System.nanoTime() < deadline
                && targets.values().stream().flatMap(List::stream).anyMatch(ProcessHandle::isAlive)) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        targets.forEach((containerId, tree) -> {
            List<Integer> forced = new ArrayList<>();
            for (ProcessHandle h : tree) {
                if (h.isAlive() && h.destroyForcibly()) {
                    forced.add((int) h.pid());
                }
            }
            LOG.info("killed container {} (reason: {}): SIGTERM to {}, SIGKILL after {} ms to {}", containerId, reason,
                    terminated.get(containerId), graceMillis, forced);
            outcomes.put(containerId, new Outcome(terminated.get(containerId), forced));
        });
        return outcomes;
    }
}
