package io.colocation.copilot;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a container's whole process tree: SIGTERM to every process, then SIGKILL to whatever is still
 * alive after the grace period, through kill(1) as the NodeManager's own executors signal. Never signals this JVM (the NodeManager), its ancestors, or init.
 */
final class ContainerKiller {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerKiller.class);

    /** What happened to one container's processes. */
    static final class Outcome {
        private final List<Integer> terminated;
        private final List<Integer> forciblyKilled;

        Outcome(List<Integer> terminated, List<Integer> forciblyKilled) {
            this.terminated = terminated;
            this.forciblyKilled = forciblyKilled;
        }

        public List<Integer> terminated() {
            return terminated;
        }

        public List<Integer> forciblyKilled() {
            return forciblyKilled;
        }
    }

    private final Path proc;
    private final long graceMillis;
    private final Set<Integer> protectedPids = new HashSet<>();

    ContainerKiller(Path proc, long graceMillis) {
        this.proc = proc;
        this.graceMillis = graceMillis;
        protectedPids.add(1);
        // This JVM and its ancestors, from the host's /proc whatever {@code proc} the tables are read from.
        Path hostProc = Paths.get("/proc");
        int pid = currentPid();
        while (pid > 1 && protectedPids.add(pid)) {
            pid = ProcessTable.parentOf(hostProc, pid);
        }
    }

    /** This JVM's pid, from {@code pid@host} (Java 8 has no ProcessHandle). */
    private static int currentPid() {
        String name = ManagementFactory.getRuntimeMXBean().getName();
        try {
            return Integer.parseInt(name.substring(0, name.indexOf('@')));
        } catch (RuntimeException e) {
            return -1;
        }
    }

    Outcome kill(String containerId, int rootPid, String reason) {
        return kill(Collections.singletonMap(containerId, rootPid), reason).get(containerId);
    }

    /**
     * Kills several containers together: one read of /proc, SIGTERM to every process of every tree, one
     * grace period for all of them, then SIGKILL to what is left, so freeing N containers takes one grace
     * period, not N. A process is known by its pid and start time, so a pid reused during the grace period
     * is never signalled.
     */
    Map<String, Outcome> kill(Map<String, Integer> rootPidByContainer, String reason) {
        ProcessTable table = ProcessTable.read(proc);
        Map<String, Map<Integer, Long>> targets = new LinkedHashMap<>();
        rootPidByContainer.forEach((containerId, rootPid) -> {
            Map<Integer, Long> tree = new LinkedHashMap<>();
            for (int pid : table.treeOf(rootPid)) {
                if (protectedPids.contains(pid)) {
                    LOG.warn("not signalling pid {} of container {}: it is the NodeManager or one of its ancestors", pid, containerId);
                    continue;
                }
                tree.put(pid, table.startTime(pid));
            }
            targets.put(containerId, tree);
        });
        Map<String, List<Integer>> terminated = new LinkedHashMap<>();
        targets.forEach((containerId, tree) -> terminated.put(containerId, signal("TERM", tree)));
        long deadline = System.nanoTime() + graceMillis * 1_000_000L;
        while (System.nanoTime() < deadline && anyAlive(targets.values())) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        targets.forEach((containerId, tree) -> {
            List<Integer> forced = signal("KILL", tree);
            LOG.info("killed container {} (reason: {}): SIGTERM to {}, SIGKILL after {} ms to {}", containerId, reason,
                    terminated.get(containerId), graceMillis, forced);
            outcomes.put(containerId, new Outcome(terminated.get(containerId), forced));
        });
        return outcomes;
    }

    private boolean alive(int pid, long startTime) {
        return ProcessTable.startTime(proc, pid) == startTime;
    }

    private boolean anyAlive(Collection<Map<Integer, Long>> trees) {
        for (Map<Integer, Long> tree : trees) {
            for (Map.Entry<Integer, Long> p : tree.entrySet()) {
                if (alive(p.getKey(), p.getValue())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Sends {@code signal} to the processes of {@code tree} still running (one kill(1) for all); returns their pids. */
    private List<Integer> signal(String signal, Map<Integer, Long> tree) {
        List<Integer> running = new ArrayList<>();
        tree.forEach((pid, startTime) -> {
            if (alive(pid, startTime)) {
                running.add(pid);
            }
        });
        if (running.isEmpty()) {
            return running;
        }
        List<String> command = new ArrayList<>(Arrays.asList("kill", "-s", signal));
        for (int pid : running) {
            command.add(Integer.toString(pid));
        }
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(new File("/dev/null")).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                LOG.warn("kill -s {} {} did not return within 10 s", signal, running);
            }
        } catch (IOException e) {
            LOG.warn("cannot run kill -s {} {}: {}", signal, running, e.getMessage());
            return Collections.emptyList();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return running;
    }
}
