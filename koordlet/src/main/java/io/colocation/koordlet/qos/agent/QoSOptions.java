package io.colocation.koordlet.qos.agent;

import io.colocation.koordlet.qos.evict.MemoryPressureEvict;

/**
 * The agent's QoS switches beyond Koordinator's feature gates.
 *
 * @param beCpuIdle         {@code cpu.idle=1} on the BE cgroup
 * @param yarnCgroupParent  where YARN containers without a cgroup go; empty: {@code <BE cgroup>/hadoop-yarn}
 * @param beMemoryHigh      {@code memory.high} on the BE cgroup (cgroup v2)
 * @param memoryPressure    eviction on a sustained memory pressure stall
 */
public record QoSOptions(boolean beCpuIdle, String yarnCgroupParent, boolean beMemoryHigh, MemoryPressureEvict.Settings memoryPressure) {
    public static final MemoryPressureEvict.Settings PRESSURE_OFF = new MemoryPressureEvict.Settings(false, 40, 5);

    public static QoSOptions defaults() {
        return new QoSOptions(false, "", false, PRESSURE_OFF);
    }

    /** Where YARN containers without a cgroup are put under the BE cgroup {@code beDir}: the configured parent, else hadoop-yarn. */
    public String yarnParentUnder(String beDir) {
        return yarnParent(yarnCgroupParent, beDir);
    }

    /** {@link #yarnParentUnder} for a configured parent that is not in a QoSOptions yet. */
    public static String yarnParent(String configured, String beDir) {
        return configured == null || configured.isBlank() ? beDir + "/hadoop-yarn" : configured.replaceAll("^/+|/+$", "");
    }
}
