package io.colocation.koordlet.qos.agent;

import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.collect.CollectTargets;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts YARN containers in the BE tier: a container YARN placed in no cgroup (the DefaultContainerExecutor) gets
 * {@code <parent>/<container_id>} with CPU shares from its vcores (1024 each, as a pod's request would) and a memory
 * limit of its allocation, and every process of its tree is moved there. The copilot always reports where YARN's
 * cgroups would be (Koordinator's {@code CgroupPath}); a container whose reported cgroup exists and that this agent
 * did not make was placed by the LinuxContainerExecutor and is left where YARN put it. The cgroups this agent made
 * for finished containers are removed once empty.
 */
final class YarnCgroups {
    private static final Logger LOG = LoggerFactory.getLogger(YarnCgroups.class);
    static final long SHARES_PER_VCORE = 1024;

    /** A cgroup this agent made for a container, and the pids already moved there. */
    private record Placed(String dir, Set<Integer> pids) {
    }

    private final CgroupWriter writer;
    private final String parent;
    /** Container id → its cgroup made here; the loop thread's own. */
    private final Map<String, Placed> placed = new HashMap<>();

    YarnCgroups(CgroupWriter writer, String parent) {
        this.writer = writer;
        this.parent = parent;
    }

    String parent() {
        return parent;
    }

    void reconcile(List<CollectTargets.YarnTarget> running) {
        Set<String> live = new HashSet<>();
        for (CollectTargets.YarnTarget c : running) {
            live.add(c.containerID());
            if (c.pids().isEmpty()) {
                continue;
            }
            Placed p = placed.get(c.containerID());
            if (p == null && !c.cgroupDir().isEmpty() && writer.exists(c.cgroupDir())) {
                continue; // YARN's own placement (LinuxContainerExecutor with cgroups) is left alone
            }
            String dir = parent + "/" + c.containerID();
            try {
                if (p == null) {
                    writer.create(parent);
                    writer.create(dir);
                    if (writer.supports(dir, CgroupWriter.Knob.MEMORY_MOVE_CHARGE)) {
                        // v1: without it the memory a process already holds stays charged where it was, and the
                        // container's cgroup (what the eviction strategies measure) would show only what comes later
                        writer.set(dir, CgroupWriter.Knob.MEMORY_MOVE_CHARGE, "3", "YARN container " + c.containerID()
                                + ": its processes' memory moves with them");
                    }
                    p = new Placed(dir, new HashSet<>());
                    placed.put(c.containerID(), p);
                }
                String why = "YARN container " + c.containerID() + " (" + c.vcores() + " vcores, " + c.memoryMB() + " MB)";
                writer.set(dir, CgroupWriter.Knob.CPU_SHARES, Long.toString(Math.max(2, c.vcores() * SHARES_PER_VCORE)), why);
                if (c.memoryMB() > 0) {
                    writer.set(dir, CgroupWriter.Knob.MEMORY_LIMIT, Long.toString(c.memoryMB() << 20), why);
                }
                for (int pid : c.pids()) {
                    if (!p.pids().contains(pid)) {
                        writer.moveProcess(dir, pid, why + ": into the BE tier");
                        p.pids().add(pid);
                    }
                }
            } catch (IOException e) {
                // a process that ended between the copilot's list and the move: the next round has the new list
                LOG.debug("cannot place YARN container {}: {}", c.containerID(), e.getMessage());
            }
        }
        placed.entrySet().removeIf(e -> {
            if (live.contains(e.getKey()) || !writer.remove(e.getValue().dir())) {
                return false;
            }
            LOG.info("removed the cgroup of finished YARN container {}", e.getKey());
            return true;
        });
    }
}
