package io.colocation.koordlet.cgroup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Where the kubelet puts pods on this host (docs/koordinator-compatibility.md §5.7): cgroup v1 or v2, cgroupfs or systemd
 * driver, and the file of each kernel interface. Every other class names a cgroup by its directory relative
 * to the cgroup root ({@code kubepods/besteffort/pod<uid>}); only this class spells kernel file names.
 */
public final class CgroupLayout {
    public enum Version { V1, V2 }

    public enum Driver { CGROUPFS, SYSTEMD }

    /** A kernel interface this agent reads, per version. */
    public enum Interface {
        CPU_USAGE("cpuacct", "cpuacct.usage", "cpu.stat"),
        MEMORY_STAT("memory", "memory.stat", "memory.stat"),
        CPU_PRESSURE(null, null, "cpu.pressure"),
        MEMORY_PRESSURE(null, null, "memory.pressure"),
        IO_PRESSURE(null, null, "io.pressure"),
        // What CgroupWriter sets (values in each version's own format, see CgroupWriter.Knob).
        CPUSET_CPUS("cpuset", "cpuset.cpus", "cpuset.cpus"),
        CPUSET_MEMS("cpuset", "cpuset.mems", "cpuset.mems"),
        CPU_QUOTA("cpu", "cpu.cfs_quota_us", "cpu.max"),
        CPU_SHARES("cpu", "cpu.shares", "cpu.weight"),
        CPU_IDLE("cpu", "cpu.idle", "cpu.idle"),
        MEMORY_LIMIT("memory", "memory.limit_in_bytes", "memory.max"),
        MEMORY_HIGH(null, null, "memory.high"),
        MEMORY_MOVE_CHARGE("memory", "memory.move_charge_at_immigrate", null);

        final String v1Subsystem;
        final String v1File;
        final String v2File;

        Interface(String v1Subsystem, String v1File, String v2File) {
            this.v1Subsystem = v1Subsystem;
            this.v1File = v1File;
            this.v2File = v2File;
        }
    }

    private static final List<String> V1_HIERARCHIES = List.of("cpu", "cpuacct", "cpuset", "memory");

    private final Path root;
    private final Version version;
    private final Driver driver;

    public CgroupLayout(Path root, Version version, Driver driver) {
        this.root = root;
        this.version = version;
        this.driver = driver;
    }

    /**
     * Detects what was not configured: v2 when the root has {@code cgroup.controllers}; systemd when
     * {@code kubepods.slice} exists (else cgroupfs, the kubelet's default).
     */
    public static CgroupLayout detect(Path root, String version, String driver) {
        Version v = switch (version.toLowerCase(Locale.ROOT)) {
            case "v1" -> Version.V1;
            case "v2" -> Version.V2;
            default -> Files.exists(root.resolve("cgroup.controllers")) ? Version.V2 : Version.V1;
        };
        Path hierarchy = v == Version.V2 ? root : root.resolve("cpu");
        Driver d = switch (driver.toLowerCase(Locale.ROOT)) {
            case "systemd" -> Driver.SYSTEMD;
            case "cgroupfs" -> Driver.CGROUPFS;
            default -> Files.isDirectory(hierarchy.resolve("kubepods.slice")) ? Driver.SYSTEMD : Driver.CGROUPFS;
        };
        return new CgroupLayout(root, v, d);
    }

    public Version version() {
        return version;
    }

    public Driver driver() {
        return driver;
    }

    /** The file of {@code what} for the cgroup {@code dir}, or null where this version has none. */
    public Path file(String dir, Interface what) {
        CgroupPaths.checked(dir);
        if (version == Version.V2) {
            return what.v2File == null ? null : root.resolve(dir).resolve(what.v2File);
        }
        return what.v1File == null ? null : root.resolve(what.v1Subsystem).resolve(dir).resolve(what.v1File);
    }

    /** The v1 hierarchies a cgroup is made in (every one this agent reads or writes); v2 has one. */
    public List<Path> hierarchies(String dir) {
        CgroupPaths.checked(dir);
        if (version == Version.V2) {
            return List.of(root.resolve(dir));
        }
        return V1_HIERARCHIES.stream().map(h -> root.resolve(h).resolve(dir)).toList();
    }

    /** The kubelet's QoS-level directory for a Kubernetes QoS class (Guaranteed, Burstable, BestEffort). */
    public String qosDir(String kubeQoS) {
        String tier = tier(kubeQoS);
        if (driver == Driver.SYSTEMD) {
            return tier.isEmpty() ? "kubepods.slice" : "kubepods.slice/kubepods-" + tier + ".slice";
        }
        return tier.isEmpty() ? "kubepods" : "kubepods/" + tier;
    }

    /** A pod's directory: {@code kubepods/burstable/pod<uid>} or {@code kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid_>.slice}. */
    public String podDir(String kubeQoS, String uid) {
        if (driver == Driver.SYSTEMD) {
            String tier = tier(kubeQoS);
            String unit = "kubepods-" + (tier.isEmpty() ? "" : tier + "-") + "pod" + uid.replace('-', '_') + ".slice";
            return qosDir(kubeQoS) + "/" + unit;
        }
        return qosDir(kubeQoS) + "/pod" + uid;
    }

    /**
     * A container's directory under its pod: {@code <pod>/<id>} (cgroupfs) or {@code <pod>/<runtime>-<id>.scope}
     * (systemd, {@code cri-containerd}, {@code crio} or {@code docker}); {@code containerID} is the status form
     * {@code containerd://<id>}.
     */
    public String containerDir(String podDir, String containerID) {
        int sep = containerID.indexOf("://");
        String runtime = sep < 0 ? "containerd" : containerID.substring(0, sep);
        String id = sep < 0 ? containerID : containerID.substring(sep + 3);
        if (driver == Driver.CGROUPFS) {
            return podDir + "/" + id;
        }
        String prefix = switch (runtime) {
            case "docker" -> "docker";
            case "cri-o" -> "crio";
            default -> "cri-containerd";
        };
        return podDir + "/" + prefix + "-" + id + ".scope";
    }

    private static String tier(String kubeQoS) {
        if (kubeQoS == null) {
            return "burstable";
        }
        return switch (kubeQoS) {
            case "Guaranteed" -> "";
            case "BestEffort" -> "besteffort";
            default -> "burstable";
        };
    }

    @Override
    public String toString() {
        return "cgroup " + version.name().toLowerCase(Locale.ROOT) + " (" + driver.name().toLowerCase(Locale.ROOT) + " driver) at " + root;
    }
}
