package io.colocation.koordlet.qos.agent;

import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.qos.cpusuppress.CpuSuppressDecision;
import io.colocation.model.node.NodeAnnotations;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Applies a CPU suppress decision to the BE tier through the cgroup writer: the CFS quota on the BE cgroup; the
 * cpuset on the BE cgroup and its descendants (pods, containers, YARN containers under it), first loosened top-down
 * to old ∪ new (a child's CPUs must stay inside its parent's), then tightened bottom-up to the new set, as
 * Koordinator does; and the optional {@code cpu.idle} mark.
 */
final class BeCpuEnforcer {
    /** Pod and container levels below the BE cgroup, as Koordinator writes them (YARN: hadoop-yarn/container). */
    static final int DEPTH = 2;

    private final CgroupWriter writer;
    private final String beDir;

    BeCpuEnforcer(CgroupWriter writer, String beDir) {
        this.writer = writer;
        this.beDir = beDir;
    }

    void apply(CpuSuppressDecision d, List<Integer> currentCpuset, boolean idle) {
        String reason = "CPU suppress (" + d.policy() + "): BE budget " + d.beMilliCpu() + "m";
        if (d.quotaWritten()) {
            writer.set(beDir, CgroupWriter.Knob.CPU_QUOTA, Long.toString(d.cfsQuotaMicros()), reason);
        }
        if (d.cpusetWritten() && !d.cpusetCpus().isEmpty()) {
            List<String> dirs = new ArrayList<>();
            dirs.add(beDir);
            dirs.addAll(writer.descendants(beDir, DEPTH));
            String tight = NodeAnnotations.formatCpuList(d.cpusetCpus());
            if (leaves(currentCpuset, d.cpusetCpus())) {
                List<Integer> union = new ArrayList<>(currentCpuset);
                union.addAll(d.cpusetCpus());
                String loose = NodeAnnotations.formatCpuList(union);
                dirs.forEach(dir -> writer.set(dir, CgroupWriter.Knob.CPUSET_CPUS, loose, reason + " (loosen first)"));
            }
            for (int i = dirs.size() - 1; i >= 0; i--) {
                writer.set(dirs.get(i), CgroupWriter.Knob.CPUSET_CPUS, tight, reason);
            }
        }
        if (writer.supports(beDir, CgroupWriter.Knob.CPU_IDLE)) {
            writer.set(beDir, CgroupWriter.Knob.CPU_IDLE, idle ? "1" : "0", idle ? "qos.beCpuIdle: the BE tier runs as SCHED_IDLE"
                    : "qos.beCpuIdle is off");
        }
    }

    /** Whether a CPU of the current set is not in the next (then old ∪ new differs from new: loosen first). */
    private static boolean leaves(List<Integer> current, List<Integer> next) {
        BitSet kept = new BitSet();
        next.forEach(kept::set);
        for (int cpu : current) {
            if (!kept.get(cpu)) {
                return true;
            }
        }
        return false;
    }
}
