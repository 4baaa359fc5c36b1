package io.colocation.koordlet.qos.agent;

import io.colocation.copilot.api.YarnContainerIds;
import io.colocation.koordlet.cgroup.CgroupPaths;
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
 *
 * <p>What the copilot says is a claim: nothing is written unless the container id is YARN's, the cgroup path resolves
 * under the YARN parent, and each process descends from the NodeManager right before it is moved. A refusal is logged
 * once per container and counted ({@link #refused()}).
 */
final class YarnCgroups {
    private static final Logger LOG = LoggerFactory.getLogger(YarnCgroups.class);
    static final long SHARES_PER_VCORE = 1024;
    /** The kernel's cpu.shares range; the kubelet clamps a pod's request into it the same way. */
    static final long MIN_SHARES = 2;
    static final long MAX_SHARES = 262_144;
    /** Beyond this a memory limit in bytes would not fit a long: no limit is written. */
    private static final long MAX_MEMORY_MB = Long.MAX_VALUE >> 20;

    /** A container's cpu.shares: 1024 per vcore, clamped to what the kernel takes (a 300-vcore container gets the maximum). */
    static long shares(int vcores) {
        return Math.min(MAX_SHARES, Math.max(MIN_SHARES, vcores * SHARES_PER_VCORE));
    }

    /** A cgroup this agent made for a container, and the pids already moved there. */
    private record Placed(String dir, Set<Integer> pids) {
    }

    private final CgroupWriter writer;
    private final String parent;
    private final java.util.function.IntPredicate ownedByNodeManager;
    private final java.util.concurrent.atomic.AtomicLong refused = new java.util.concurrent.atomic.AtomicLong();
    private final Set<String> named = new HashSet<>();
    /** Container id → its cgroup made here; the loop thread's own. */
    private final Map<String, Placed> placed = new HashMap<>();

    YarnCgroups(CgroupWriter writer, String parent, java.util.function.IntPredicate ownedByNodeManager) {
        this.writer = writer;
        this.parent = parent;
        this.ownedByNodeManager = ownedByNodeManager;
    }

    /** Containers and processes refused so far (bad id, a path outside the parent, a process not the NodeManager's). */
    long refused() {
        return refused.get();
    }

    private void refuse(String containerID, String why) {
        refused.incrementAndGet();
        if (named.size() > 4096) {
            named.clear();
        }
        if (named.add(containerID + why)) {
            LOG.warn("YARN container {}: {}; nothing written", containerID, why);
        }
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
            if (!YarnContainerIds.isValid(c.containerID())) {
                refuse(c.containerID(), "not a YARN container id");
                continue;
            }
            String dir = parent + "/" + c.containerID();
            if (!CgroupPaths.isUnder(dir, parent)) {
                refuse(c.containerID(), "cgroup " + dir + " does not lie under " + parent);
                continue;
            }
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
                writer.set(dir, CgroupWriter.Knob.CPU_SHARES, Long.toString(shares(c.vcores())), why);
                if (c.memoryMB() > 0 && c.memoryMB() <= MAX_MEMORY_MB) {
                    writer.set(dir, CgroupWriter.Knob.MEMORY_LIMIT, Long.toString(c.memoryMB() << 20), why);
                }
                for (int pid : c.pids()) {
                    if (p.pids().contains(pid)) {
                        continue;
                    }
                    if (!ownedByNodeManager.test(pid)) {
                        refuse(c.containerID(), "process " + pid + " does not descend from the NodeManager");
                        continue;
                    }
                    try {
                        writer.moveProcess(dir, pid, why + ": into the BE tier");
                        p.pids().add(pid);
                    } catch (IOException e) {
                        // a process that ended between the copilot's list and the move: the next round has the new list
                        LOG.debug("cannot move process {} of YARN container {}: {}", pid, c.containerID(), e.getMessage());
                    }
                }
            } catch (IOException e) {
                LOG.debug("cannot make the cgroup of YARN container {}: {}", c.containerID(), e.getMessage());
            } catch (RuntimeException e) {
                refuse(c.containerID(), "cannot be placed: " + e.getMessage());
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
