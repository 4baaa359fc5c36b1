package io.colocation.koordlet.collect;

import java.util.Map;

/**
 * One sample of a host. Maps hold only what was measured: a pod whose cgroup was unreadable is absent
 * (or has missing parts), not 0.
 *
 * @param pods           pod uid → usage
 * @param containers     pod uid → container name → usage; empty in samples that did not measure containers
 * @param hostApps       host application name → usage (not including YARN)
 * @param yarnContainers YARN container id → usage
 * @param yarn           Σ of the YARN containers, the {@code hadoop-yarn} host application: 0 when the copilot
 *                       lists none, missing when the list is unknown (copilot down)
 */
public record HostSample(long timeMillis, Usage node, Map<String, Usage> pods, Map<String, Map<String, Usage>> containers,
        Map<String, Usage> hostApps, Map<String, Usage> yarnContainers, Usage yarn, Pressure pressure) {

    /** Σ of the YARN containers measured, or missing when the container list is unknown. */
    public static Usage yarnTotal(boolean listKnown, Map<String, Usage> yarnContainers) {
        if (!listKnown) {
            return Usage.MISSING;
        }
        Usage total = new Usage(0, 0);
        for (Usage u : yarnContainers.values()) {
            total = total.plus(u);
        }
        return total;
    }

    /**
     * System usage as Koordinator's koordlet computes it: {@code max(node − Σpods − ΣhostApps, 0)} per resource,
     * YARN included in the host applications; missing where the node part is missing.
     */
    public Usage system() {
        double cpu = node.cpuCores();
        long mem = node.memoryBytes();
        for (Map<String, Usage> group : java.util.List.of(pods, hostApps, yarnContainers)) {
            for (Usage u : group.values()) {
                if (u.hasCpu()) {
                    cpu -= u.cpuCores();
                }
                if (u.hasMemory()) {
                    mem -= u.memoryBytes();
                }
            }
        }
        return new Usage(node.hasCpu() ? Math.max(cpu, 0) : Double.NaN, node.hasMemory() ? Math.max(mem, 0) : -1);
    }

    /** Pressure stall information (avg10, percent); NaN where the kernel has none. */
    public record Pressure(double cpuSome, double memorySome, double memoryFull, double ioSome, double ioFull) {
        public static final Pressure NONE = new Pressure(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
}
