package io.colocation.koordlet.qos;

/**
 * A NodeSLO {@code hostApplications[]} entry with its last usage sample (null: none).
 *
 * @param cgroupBase {@code cgroupPath.base} (null without cgroupPath)
 */
public record HostApplication(String name, String qos, String cgroupBase, Long cpuUsedMilli, Long memoryUsedBytes) {

    /** Koordinator's {@code NonBEHostAppFilter}: only a BE app under the besteffort cgroup is part of the BE tier. */
    public boolean nonBE() {
        return !"BE".equals(qos) || !"KubepodsBesteffort".equals(cgroupBase);
    }
}
