package io.colocation.koordlet.collect;

import io.colocation.koordlet.cgroup.CgroupLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A host captured on disk: /proc files and a cgroup tree laid out as the kubelet makes it for one cgroup version
 * and driver, with figures the test sets. Used by the collector tests and the footprint benchmark.
 */
public final class CgroupTreeFixture {
    private final Path proc;
    private final Path cgroup;
    private final CgroupLayout layout;

    public CgroupTreeFixture(Path root, CgroupLayout.Version version, CgroupLayout.Driver driver) {
        this.proc = root.resolve("proc");
        this.cgroup = root.resolve("cgroup");
        this.layout = new CgroupLayout(cgroup, version, driver);
        write(proc.resolve("pressure/cpu"), "some avg10=1.50 avg60=1.00 avg300=0.50 total=123\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
        write(proc.resolve("pressure/memory"), "some avg10=0.25 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.10 avg60=0.00 avg300=0.00 total=1\n");
        write(proc.resolve("pressure/io"), "some avg10=3.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=2.00 avg60=0.00 avg300=0.00 total=1\n");
        if (version == CgroupLayout.Version.V2) {
            write(cgroup.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        }
        String qosHierarchy = driver == CgroupLayout.Driver.SYSTEMD ? "kubepods.slice" : "kubepods";
        try {
            Files.createDirectories(version == CgroupLayout.Version.V2 ? cgroup.resolve(qosHierarchy) : cgroup.resolve("cpu").resolve(qosHierarchy));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        node(0, 16L << 30, 8L << 30, 4L << 30, 1L << 30);
    }

    public CgroupLayout layout() {
        return layout;
    }

    public Path procRoot() {
        return proc;
    }

    public Path cgroupRoot() {
        return cgroup;
    }

    /** /proc/stat with {@code busyTicks} split over user and system, and /proc/meminfo. */
    public void node(long busyTicks, long totalBytes, long availableBytes, long freeBytes, long activeFileBytes) {
        write(proc.resolve("stat"), "cpu  " + (busyTicks - busyTicks / 4) + " 0 " + busyTicks / 4 + " 99999 50 0 0 0 0 0\n"
                + "cpu0 1 0 1 1 0 0 0 0 0 0\nintr 1\nctxt 1\n");
        write(proc.resolve("meminfo"), "MemTotal:       " + totalBytes / 1024 + " kB\nMemFree:        " + freeBytes / 1024
                + " kB\nMemAvailable:   " + availableBytes / 1024 + " kB\nBuffers:          1000 kB\nActive(file):   "
                + activeFileBytes / 1024 + " kB\n");
    }

    /** The cgroup {@code dir} with a CPU counter and memory.stat of its anonymous and file pages. */
    public void cgroup(String dir, long cpuNanos, long anonBytes, long fileBytes) {
        if (layout.version() == CgroupLayout.Version.V2) {
            Path d = cgroup.resolve(dir);
            write(d.resolve("cpu.stat"), "usage_usec " + cpuNanos / 1000 + "\nuser_usec 1\nsystem_usec 1\n");
            write(d.resolve("memory.stat"), "anon " + anonBytes + "\nfile " + fileBytes + "\nactive_anon " + anonBytes / 2 + "\ninactive_anon "
                    + (anonBytes - anonBytes / 2) + "\nactive_file " + fileBytes / 2 + "\ninactive_file " + (fileBytes - fileBytes / 2)
                    + "\nunevictable 0\n");
        } else {
            write(cgroup.resolve("cpuacct").resolve(dir).resolve("cpuacct.usage"), cpuNanos + "\n");
            mkdirs(cgroup.resolve("cpu").resolve(dir));
            // v1 has the group's own counters and the hierarchy's total_*; the collector must read total_*.
            write(cgroup.resolve("memory").resolve(dir).resolve("memory.stat"), "cache " + fileBytes + "\nrss " + anonBytes
                    + "\nactive_anon 1\ninactive_anon 1\nactive_file 1\ninactive_file 1\nunevictable 0\n"
                    + "total_cache " + fileBytes + "\ntotal_rss " + anonBytes + "\ntotal_active_anon " + anonBytes / 2
                    + "\ntotal_inactive_anon " + (anonBytes - anonBytes / 2) + "\ntotal_active_file " + fileBytes / 2
                    + "\ntotal_inactive_file " + (fileBytes - fileBytes / 2) + "\ntotal_unevictable 0\n");
        }
    }

    /** A process in /proc with its CPU ticks and resident memory (a YARN container without a cgroup). */
    public void process(int pid, long ticks, long rssBytes) {
        write(proc.resolve(Integer.toString(pid)).resolve("stat"), pid + " (java main) S 1 " + pid + " " + pid
                + " 0 -1 4194304 1 0 0 0 " + (ticks - ticks / 3) + " " + ticks / 3 + " 0 0 20 0 1 0 100 1 1\n");
        write(proc.resolve(Integer.toString(pid)).resolve("status"), "Name:\tjava\nVmRSS:\t" + rssBytes / 1024 + " kB\nThreads:\t1\n");
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void mkdirs(Path p) {
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
