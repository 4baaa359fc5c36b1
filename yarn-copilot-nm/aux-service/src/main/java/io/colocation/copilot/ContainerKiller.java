package io.colocation.copilot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
        List<ProcessHandle> targets = new ArrayList<>();
        for (int pid : ProcessTable.read(proc).treeOf(rootPid)) {
            if (protectedPids.contains((long) pid)) {
                LOG.warn("not signalling pid {} of container {}: it is the NodeManager or one of its ancestors", pid, containerId);
                continue;
            }
            ProcessHandle.of(pid).ifPresent(targets::add);
        }
        List<Integer> terminated = new ArrayList<>();
        for (ProcessHandle h : targets) {
            if (h.destroy()) {
                terminated.add((int) h.pid());
            }
        }
        long deadline = System.nanoTime() + graceMillis * 1_000_000L;
        while (System.nanoTime() < deadline && targets.stream().anyMatch(ProcessHandle::isAlive)) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        List<Integer> forced = new ArrayList<>();
        for (ProcessHandle h : targets) {
            if (h.isAlive() && h.destroyForcibly()) {
                forced.add((int) h.pid());
            }
        }
        LOG.info("killed container {} (reason: {}): SIGTERM to {}, SIGKILL after {} ms to {}", containerId, reason,
                terminated, graceMillis, forced);
        return new Outcome(terminated, forced);
    }
}
