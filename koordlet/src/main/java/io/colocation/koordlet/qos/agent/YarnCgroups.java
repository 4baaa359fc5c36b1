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
 * limit of its allocation, and every process of its tree is moved there; a container the LinuxContainerExecutor
 * placed is left where YARN put it. The cgroups of finished containers are removed once empty.
 */
final class YarnCgroups {
    private static final Logger LOG = LoggerFactory.getLogger(YarnCgroups.class);
    static final long SHARES_PER_VCORE = 1024;

    private final CgroupWriter writer;
    private final String parent;
    /** Container id → the pids already moved; the loop thread's own. */
    private final Map<String, Set<Integer>> moved = new HashMap<>();

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
            if (!c.cgroupDir().isEmpty() || c.pids().isEmpty()) {
                continue; // YARN's own placement (LinuxContainerExecutor) is left alone
            }
            live.add(c.containerID());
            String dir = parent + "/" + c.containerID();
            try {
                if (!moved.containsKey(c.containerID())) {
                    writer.create(parent);
                    writer.create(dir);
                    moved.put(c.containerID(), new HashSet<>());
                }
                String why = "YARN container " + c.containerID() + " (" + c.vcores() + " vcores, " + c.memoryMB() + " MB)";
                writer.set(dir, CgroupWriter.Knob.CPU_SHARES, Long.toString(Math.max(2, c.vcores() * SHARES_PER_VCORE)), why);
                if (c.memoryMB() > 0) {
                    writer.set(dir, CgroupWriter.Knob.MEMORY_LIMIT, Long.toString(c.memoryMB() << 20), why);
                }
                Set<Integer> done = moved.get(c.containerID());
                for (int pid : c.pids()) {
                    if (!done.contains(pid)) {
                        writer.moveProcess(dir, pid, why + ": into the BE tier");
                        done.add(pid);
                    }
                }
            } catch (IOException e) {
                // a process that ended between the copilot's list and the move: the next round has the new list
                LOG.debug("cannot place YARN container {}: {}", c.containerID(), e.getMessage());
            }
        }
        for (String gone : writer.descendants(parent, 1)) {
            String id = gone.substring(parent.length() + 1);
            if (!live.contains(id) && writer.remove(gone)) {
                moved.remove(id);
                LOG.info("removed the cgroup of finished YARN container {}", id);
            }
        }
    }
}
