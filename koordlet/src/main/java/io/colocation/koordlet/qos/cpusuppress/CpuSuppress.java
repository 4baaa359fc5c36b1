package io.colocation.koordlet.qos.cpusuppress;

import io.colocation.koordlet.qos.BestEffortState;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.HostApplication;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.QoSPod;
import io.colocation.koordlet.qos.Processor;
import io.colocation.koordlet.qos.ResourceThresholds;
import io.colocation.api.QoSClass;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Koordinator's {@code BECPUSuppress} (docs/koordinator-compatibility.md §5.2) as a pure function: how much CPU the BE tier
 * (BE pods and YARN containers alike) may use now, and the cpuset or CFS quota that enforces it.
 */
public final class CpuSuppress {
    /** Koordinator's floor: the BE tier keeps at least this many CPUs in its cpuset, however busy online work is. */
    public static final int BE_MIN_CPUSET_CPUS = 2;
    /** Koordinator's floor for the CFS quota policy, in milli-cores. */
    public static final long BE_MIN_QUOTA = 2000;
    static final double MAX_INCREASE_RATIO = 0.1;
    static final double BYPASS_QUOTA_DELTA_RATIO = 0.01;
    static final long CFS_PERIOD = BestEffortState.DEFAULT_PERIOD;

    private CpuSuppress() {
    }

    public static CpuSuppressDecision decide(NodeSnapshot s) {
        List<String> explain = new ArrayList<>();
        ResourceThresholds t = s.thresholds() != null ? s.thresholds() : ResourceThresholds.defaults();
        String policy = t.suppressPolicy();
        BestEffortState be = s.bestEffort();
        List<Integer> currentCpuset = be.cpusetCpus() != null ? be.cpusetCpus() : usableCpus(s);
        long currentQuota = be.cfsQuotaMicros();
        List<String> arithmetic = new ArrayList<>();
        Long budget = budget(s, t, arithmetic);
        long beMilli = budget == null ? 0 : budget;

        if (!s.featureGates().enabled(FeatureGates.BE_CPU_SUPPRESS)) {
            explain.add("feature gate BECPUSuppress is off: the BE cgroup is left as it is");
            return unchanged(false, policy, beMilli, currentCpuset, currentQuota, explain);
        }
        if (s.thresholds() == null) {
            explain.add("no NodeSLO for this node: suppress waits for one and writes nothing");
            return unchanged(false, policy, beMilli, currentCpuset, currentQuota, explain);
        }
        if (!t.enable()) {
            explain.add("NodeSLO resourceUsedThresholdWithBE.enable is false: suppress is off, so the BE tier gets"
                    + " all usable CPUs and no CFS quota");
            boolean known = s.cpuTopology() != null;
            return new CpuSuppressDecision(false, policy, beMilli, known ? usableCpus(s) : currentCpuset,
                    BestEffortState.UNSET_QUOTA, known, true, explain);
        }
        if (s.pods().isEmpty()) {
            explain.add("no pods on the node: nothing to suppress, the BE cgroup is left as it is");
            return unchanged(true, policy, beMilli, currentCpuset, currentQuota, explain);
        }
        if (s.nodeCpuUsedMilli() == null) {
            explain.add("no node CPU sample: the BE cgroup is left as it is");
            return unchanged(true, policy, beMilli, currentCpuset, currentQuota, explain);
        }
        explain.addAll(arithmetic);
        if (policy.equals(ResourceThresholds.POLICY_CFS_QUOTA)) {
            OptionalLong quota = cfsQuota(s, beMilli, currentQuota, explain);
            List<Integer> cpus = s.cpuTopology() == null ? currentCpuset : usableCpus(s);
            explain.add(s.cpuTopology() == null ? "cpuset: CPU topology unknown, left as it is"
                    : "cpuset: restored to all " + cpus.size() + " usable CPUs (policy cfsQuota)");
            return new CpuSuppressDecision(true, policy, beMilli, cpus, quota.orElse(currentQuota), s.cpuTopology() != null,
                    quota.isPresent(), explain);
        }
        if (s.cpuTopology() == null) {
            explain.add("CPU topology unknown: the cpuset cannot be chosen, nothing is written");
            return unchanged(true, policy, beMilli, currentCpuset, currentQuota, explain);
        }
        List<Integer> cpus = cpuset(s, beMilli, currentCpuset, explain);
        boolean written = !cpus.isEmpty();
        if (!written) {
            explain.add("cpuset: no CPUs could be picked, the BE cpuset is left as it is");
        }
        explain.add("cfs quota: restored to -1 (policy cpuset)");
        return new CpuSuppressDecision(true, policy, beMilli, written ? cpus : currentCpuset, BestEffortState.UNSET_QUOTA,
                written, true, explain);
    }

    private static CpuSuppressDecision unchanged(boolean enabled, String policy, long beMilli, List<Integer> cpuset, long quota,
            List<String> explain) {
        return new CpuSuppressDecision(enabled, policy, beMilli, cpuset, quota, false, false, explain);
    }

    /**
     * suppress(BE) = capacity × threshold% − non-BE pods' usage − non-BE host apps' usage − max(system usage, reserved);
     * null without a node sample. The arithmetic is written to {@code explain}.
     */
    static Long budget(NodeSnapshot s, ResourceThresholds t, List<String> explain) {
        if (s.nodeCpuUsedMilli() == null) {
            return null;
        }
        long podsAll = 0;
        long podsNonBE = 0;
        for (QoSPod p : s.pods()) {
            if (p.cpuUsedMilli() != null) {
                podsAll += p.cpuUsedMilli();
                if (p.nonBE()) {
                    podsNonBE += p.cpuUsedMilli();
                }
            }
        }
        long appsAll = 0;
        long appsNonBE = 0;
        for (HostApplication a : s.hostApplications()) {
            if (a.cpuUsedMilli() != null) {
                appsAll += a.cpuUsedMilli();
                if (a.nonBE()) {
                    appsNonBE += a.cpuUsedMilli();
                }
            }
        }
        long rest = Math.max(s.nodeCpuUsedMilli() - podsAll - appsAll, 0);
        long system = Math.max(rest, s.reservedCpuMilli());
        long threshold = t.cpuSuppressThresholdPercent() == null ? 0 : t.cpuSuppressThresholdPercent();
        long budget = s.capacityCpuMilli() * threshold / 100 - podsNonBE - appsNonBE - system;
        explain.add("system used = max(node used " + s.nodeCpuUsedMilli() + "m − pods " + podsAll + "m − host apps "
                    + appsAll + "m, reserved " + s.reservedCpuMilli() + "m) = " + system + "m");
            explain.add("BE budget = capacity " + s.capacityCpuMilli() + "m × " + threshold + "% − non-BE pods " + podsNonBE
                    + "m − non-BE host apps " + appsNonBE + "m − system " + system + "m = "
                + (s.capacityCpuMilli() * threshold / 100 - podsNonBE - appsNonBE - system) + "m");
        if (t.cpuSuppressMinPercent() != null) {
            long min = s.capacityCpuMilli() * t.cpuSuppressMinPercent() / 100;
            if (budget < min) {
                explain.add("raised to the minimum " + t.cpuSuppressMinPercent() + "% of capacity = " + min + "m");
                budget = min;
            }
        }
        return budget;
    }

    /** The new quota; empty when the change is too small to write. */
    private static OptionalLong cfsQuota(NodeSnapshot s, long beMilli, long current, List<String> explain) {
        long quota = Math.max(beMilli * CFS_PERIOD / 1000, BE_MIN_QUOTA);
        long capCores = ceilDiv(s.capacityCpuMilli(), 1000);
        double minDelta = capCores * CFS_PERIOD * BYPASS_QUOTA_DELTA_RATIO;
        explain.add("cfs quota = max(" + beMilli + "m × " + CFS_PERIOD + "µs / 1000, " + BE_MIN_QUOTA + ") = " + quota + "µs"
                + " (current " + current + ")");
        if (Math.abs((double) quota - current) < minDelta && quota != BE_MIN_QUOTA) {
            explain.add("cfs quota: change below " + (long) minDelta + "µs (1% of the node), not written");
            return OptionalLong.empty();
        }
        double maxIncrease = capCores * CFS_PERIOD * MAX_INCREASE_RATIO;
        if ((double) quota - current > maxIncrease && current != BestEffortState.UNSET_QUOTA) {
            quota = current + (long) maxIncrease;
            explain.add("cfs quota: growth limited to 10% of the node per round: " + quota + "µs");
        }
        return OptionalLong.of(quota);
    }

    private static List<Integer> cpuset(NodeSnapshot s, long beMilli, List<Integer> current, List<String> explain) {
        Map<Integer, QoSClass> pinned = new LinkedHashMap<>();
        for (QoSPod p : s.pods()) {
            for (int cpu : p.pinnedCpus()) {
                pinned.put(cpu, p.rawQoS());
            }
        }
        Set<Integer> excluded = new HashSet<>(s.reservedCpus());
        excluded.addAll(s.systemExclusiveCpus());
        List<Processor> lsr = new ArrayList<>();
        List<Processor> ls = new ArrayList<>();
        for (Processor p : s.cpuTopology()) {
            if (excluded.contains(p.cpu())) {
                continue;
            }
            QoSClass pool = pinned.get(p.cpu());
            if (pool == QoSClass.LSR) {
                lsr.add(p);
            } else if (pool != QoSClass.LSE) {
                ls.add(p);
            }
        }
        int cpus = (int) Math.max(Math.ceil(beMilli / 1000.0), BE_MIN_CPUSET_CPUS);
        int maxIncrease = (int) Math.ceil(s.cpuTopology().size() * MAX_INCREASE_RATIO);
        String line = "cpuset size = max(ceil(" + beMilli + "m / 1000), " + BE_MIN_CPUSET_CPUS + ") = " + cpus;
        if (cpus - current.size() > maxIncrease) {
            cpus = current.size() + maxIncrease;
            line += ", growth limited to " + maxIncrease + " CPUs per round above the current " + current.size() + ": " + cpus;
        }
        explain.add(line);
        int pool = lsr.size() + ls.size();
        int fromLsr = pool == 0 ? 0 : cpus * lsr.size() / pool;
        List<Integer> picked = new ArrayList<>();
        if (fromLsr > 0) {
            picked.addAll(CpuSetPicker.pick(fromLsr, lsr));
        }
        if (cpus - fromLsr > 0) {
            picked.addAll(CpuSetPicker.pick(cpus - fromLsr, ls));
        }
        explain.add("cpuset: " + fromLsr + " from the LSR pool (" + lsr.size() + " CPUs), " + (cpus - fromLsr)
                + " from the shared pool (" + ls.size() + " CPUs), excluding reserved, system-exclusive and LSE CPUs: "
                + picked);
        return picked;
    }

    /** All CPUs the BE tier may use: not reserved, not system-exclusive, not pinned by an LSE pod; ascending. */
    static List<Integer> usableCpus(NodeSnapshot s) {
        if (s.cpuTopology() == null) {
            return List.of();
        }
        Set<Integer> excluded = new HashSet<>(s.reservedCpus());
        excluded.addAll(s.systemExclusiveCpus());
        for (QoSPod p : s.pods()) {
            if (p.rawQoS() == QoSClass.LSE) {
                excluded.addAll(p.pinnedCpus());
            }
        }
        List<Integer> cpus = new ArrayList<>(s.cpuTopology().size());
        for (Processor p : s.cpuTopology()) {
            if (!excluded.contains(p.cpu())) {
                cpus.add(p.cpu());
            }
        }
        cpus.sort(null);
        List<Integer> distinct = new ArrayList<>(cpus.size());
        for (Integer c : cpus) {
            if (distinct.isEmpty() || !distinct.get(distinct.size() - 1).equals(c)) {
                distinct.add(c);
            }
        }
        return List.copyOf(distinct);
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }
}
