package io.colocation.koordlet.collect;

import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.koordlet.cgroup.CgroupLayout.Interface;
import io.colocation.koordlet.cgroup.CgroupLayout;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures the real host: node CPU and memory from /proc, pods, containers and host applications from their
 * cgroups, YARN containers from their cgroups or, where a container has none (DefaultContainerExecutor), from
 * its processes in /proc, and pressure stall information. A file that cannot be read is warned about once, with
 * its path, and its figure is missing from the sample.
 */
public final class HostUsageSource implements UsageSource {
    /** Kept-open files not read for this many samples are closed (their pod or container is gone). */
    private static final int KEEP_OPEN_SAMPLES = 120;
    private static final Logger LOG = LoggerFactory.getLogger(HostUsageSource.class);
    /** USER_HZ: the unit of /proc/stat and /proc/<pid>/stat times on every Linux architecture we run on. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private final Path procRoot;
    private final CgroupLayout layout;
    private final KernelFileReader reader = new KernelFileReader();
    private final CpuRates rates = new CpuRates();
    /** Containers are read only in some samples: their counters are kept between those samples. */
    private final CpuRates containerRates = new CpuRates();
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);
    private final long[] stat = new long[10];
    private final long[] memoryFields = new long[5];
    /** v1 reports the hierarchy's totals under total_*; v2's memory.stat is hierarchical already. */
    private final byte[][] memoryKeys;
    private Set<String> failedNow = new HashSet<>();
    private Set<String> failedBefore = new HashSet<>();
    /** cgroup dir → its CPU and memory files, so a sample builds no paths for cgroups it read before. */
    private final Map<String, CgroupFiles> files = new HashMap<>();
    private long sampleNumber;
    private final Path procStat;
    private final Path procMeminfo;
    private final Path[] pressureFiles;
    private static final double[] NO_PRESSURE = {Double.NaN, Double.NaN};

    private final java.util.function.LongSupplier nanoTime;

    public HostUsageSource(Path procRoot, CgroupLayout layout) {
        this(procRoot, layout, System::nanoTime);
    }

    /** @param nanoTime the monotonic clock CPU rates divide by (tests step it) */
    public HostUsageSource(Path procRoot, CgroupLayout layout, java.util.function.LongSupplier nanoTime) {
        this.procRoot = procRoot;
        this.layout = layout;
        this.nanoTime = nanoTime;
        String p = layout.version() == CgroupLayout.Version.V1 ? "total_" : "";
        this.procStat = procRoot.resolve("stat");
        this.procMeminfo = procRoot.resolve("meminfo");
        Path pressure = procRoot.resolve("pressure");
        this.pressureFiles = new Path[] {pressure.resolve("cpu"), pressure.resolve("memory"), pressure.resolve("io")};
        this.memoryKeys = KernelFileReader.keys(p + "active_anon", p + "inactive_anon", p + "unevictable", p + "active_file",
                p + "inactive_file");
    }

    @Override
    public String describe() {
        return "host: " + procRoot + ", " + layout;
    }

    @Override
    public HostSample collect(CollectTargets targets, long nowMillis) {
        rates.beginRound();
        if (targets.podContainers()) {
            containerRates.beginRound();
        }
        Set<String> swap = failedBefore;
        failedBefore = failedNow;
        failedNow = swap;
        failedNow.clear();
        sampleNumber++;
        MemoryCollectPolicy policy = targets.memoryPolicy();
        Usage node = new Usage(nodeCpu(), nodeMemory(policy));
        Map<String, Usage> pods = new HashMap<>();
        Map<String, Map<String, Usage>> containers = new HashMap<>();
        for (CollectTargets.PodTarget pod : targets.pods()) {
            String dir = layout.podDir(pod.kubeQoS(), pod.uid());
            Usage u = cgroup(dir, policy, rates);
            if (!u.isMissing()) {
                pods.put(pod.uid(), u);
            }
            if (!targets.podContainers()) {
                continue;
            }
            Map<String, Usage> byName = new HashMap<>();
            for (CollectTargets.ContainerTarget c : pod.containers()) {
                if (c.containerID() != null && !c.containerID().isEmpty()) {
                    Usage cu = cgroup(layout.containerDir(dir, c.containerID()), policy, containerRates);
                    if (!cu.isMissing()) {
                        byName.put(c.name(), cu);
                    }
                }
            }
            if (!byName.isEmpty()) {
                containers.put(pod.uid(), byName);
            }
        }
        Map<String, Usage> apps = new HashMap<>();
        for (CollectTargets.HostAppTarget app : targets.hostApps()) {
            Usage u = cgroup(app.cgroupDir(), policy, rates);
            if (!u.isMissing()) {
                apps.put(app.name(), u);
            }
        }
        Map<String, Usage> yarn = new HashMap<>();
        for (CollectTargets.YarnTarget c : targets.yarnContainers()) {
            Usage u = yarnContainer(c, policy);
            if (!u.isMissing()) {
                yarn.put(c.containerID(), u);
            }
        }
        double[] cpu = psi(0);
        double[] memory = psi(1);
        double[] io = psi(2);
        HostSample.Pressure pressure = new HostSample.Pressure(cpu[0], memory[0], memory[1], io[0], io[1]);
        rates.endRound();
        if (targets.podContainers()) {
            containerRates.endRound();
        }
        // Files of pods that are gone stop being reported; a cause that returns is warned about again.
        warnings.retain(failedNow);
        // Paths and open files of cgroups that are gone are dropped by the same rule.
        files.values().removeIf(f -> sampleNumber - f.lastSample > KEEP_OPEN_SAMPLES);
        reader.closeUnread(KEEP_OPEN_SAMPLES);
        return new HostSample(nowMillis, node, pods, containers, apps, yarn,
                HostSample.yarnTotal(targets.yarnListKnown(), yarn), pressure);
    }

    private double nodeCpu() {
        Path file = procStat;
        long now = nanoTime.getAsLong();
        if (reader.readKept(file) < 0) {
            return fail(file, reader.lastError());
        }
        int at = reader.lineAfter("cpu ");
        // user nice system idle iowait irq softirq steal: busy = all but idle and iowait (Koordinator's ticks)
        if (at < 0 || reader.numbers(at, stat) < 8) {
            return fail(file, "no aggregate 'cpu' line with 8 fields");
        }
        ok(file);
        long busy = stat[0] + stat[1] + stat[2] + stat[5] + stat[6] + stat[7];
        return rates.rate("node", busy * NANOS_PER_TICK, now);
    }

    private long nodeMemory(MemoryCollectPolicy policy) {
        Path file = procMeminfo;
        if (reader.readKept(file) < 0) {
            fail(file, reader.lastError());
            return -1;
        }
        long total = reader.field("MemTotal");
        long available = reader.field("MemAvailable");
        long free = reader.field("MemFree");
        long activeFile = reader.field("Active(file)");
        if (total < 0 || available < 0 || free < 0) {
            fail(file, "MemTotal, MemAvailable or MemFree missing");
            return -1;
        }
        ok(file);
        long kib = switch (policy) {
            case USAGE_WITH_PAGE_CACHE -> total - free;
            case USAGE_WITH_HOT_PAGE_CACHE -> Math.min(total, total - available + Math.max(activeFile, 0));
            default -> total - available;
        };
        return Math.max(kib, 0) * 1024;
    }

    /** CPU and memory of one cgroup; each part missing if its file cannot be read. */
    private Usage cgroup(String dir, MemoryCollectPolicy policy, CpuRates rates) {
        return new Usage(cgroupCpu(dir, rates), cgroupMemory(dir, policy));
    }

    private double cgroupCpu(String dir, CpuRates rates) {
        Path file = files(dir).cpu;
        long now = nanoTime.getAsLong();
        if (reader.readKept(file) < 0) {
            return fail(file, reader.lastError());
        }
        return cpuRead(dir, file, now, rates);
    }

    /** The CPU rate of a cgroup whose usage file is in the reader. */
    private double cpuRead(String dir, Path file, long now, CpuRates rates) {
        long nanos = layout.version() == CgroupLayout.Version.V2 ? times(reader.field("usage_usec"), 1000) : reader.number();
        if (nanos < 0) {
            return fail(file, "no CPU usage counter in it");
        }
        ok(file);
        return rates.rate(dir, nanos, now);
    }

    private static long times(long v, long factor) {
        return v < 0 ? -1 : v * factor;
    }

    private long cgroupMemory(String dir, MemoryCollectPolicy policy) {
        Path file = files(dir).memory;
        if (reader.readKept(file) < 0) {
            fail(file, reader.lastError());
            return -1;
        }
        reader.fields(memoryKeys, memoryFields);
        long activeAnon = memoryFields[0];
        long inactiveAnon = memoryFields[1];
        long unevictable = memoryFields[2];
        long activeFile = memoryFields[3];
        long inactiveFile = memoryFields[4];
        if (activeAnon < 0 || inactiveAnon < 0) {
            fail(file, "no " + new String(memoryKeys[0], java.nio.charset.StandardCharsets.US_ASCII) + "/"
                    + new String(memoryKeys[1], java.nio.charset.StandardCharsets.US_ASCII) + " in it");
            return -1;
        }
        ok(file);
        long used = activeAnon + inactiveAnon + Math.max(unevictable, 0);
        return switch (policy) {
            case USAGE_WITH_PAGE_CACHE -> used + Math.max(activeFile, 0) + Math.max(inactiveFile, 0);
            case USAGE_WITH_HOT_PAGE_CACHE -> used + Math.max(activeFile, 0);
            default -> used;
        };
    }

    /** A YARN container: its cgroup when it has one, else the sum of its processes. */
    private Usage yarnContainer(CollectTargets.YarnTarget c, MemoryCollectPolicy policy) {
        // Reading its CPU file tells whether the container has a cgroup (LinuxContainerExecutor, or moved there by part 2).
        if (c.cgroupDir() != null && !c.cgroupDir().isEmpty()) {
            Path cpuFile = files(c.cgroupDir()).cpu;
            long now = nanoTime.getAsLong();
            if (reader.readKept(cpuFile) >= 0) {
                return new Usage(cpuRead(c.cgroupDir(), cpuFile, now, rates), cgroupMemory(c.cgroupDir(), policy));
            }
        }
        List<Integer> pids = c.pids();
        if (pids == null || pids.isEmpty()) {
            return Usage.MISSING;
        }
        long ticks = 0;
        long rssKib = 0;
        int seen = 0;
        long now = nanoTime.getAsLong();
        for (int pid : pids) {
            Path dir = procRoot.resolve(Integer.toString(pid));
            // A process may exit between the copilot's list and this read: skipped, not an error.
            if (reader.read(dir.resolve("stat")) < 0) {
                continue;
            }
            String text = reader.text();
            int close = text.lastIndexOf(')');
            if (close < 0) {
                continue;
            }
            String[] f = text.substring(close + 2).trim().split(" ");
            if (f.length < 13) {
                continue;
            }
            // after "(comm) ": state(0) ... utime(11) stime(12)
            ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            if (reader.read(dir.resolve("status")) >= 0) {
                long rss = reader.field("VmRSS");
                rssKib += Math.max(rss, 0);
            }
            seen++;
        }
        if (seen == 0) {
            return Usage.MISSING;
        }
        return new Usage(rates.rate("yarn-pids:" + c.containerID(), ticks * NANOS_PER_TICK, now), rssKib * 1024);
    }

    /** avg10 of the "some" and "full" lines of one pressure file (cpu, memory, io); NaN where absent. */
    private double[] psi(int resource) {
        Path file = pressureFiles[resource];
        if (reader.readKept(file) < 0) {
            fail(file, "no pressure stall information (" + reader.lastError() + "; kernel without PSI or psi=0)");
            return NO_PRESSURE;
        }
        ok(file);
        return new double[] {reader.decimalAfter("some ", "avg10="), reader.decimalAfter("full ", "avg10=")};
    }

    /** The CPU usage and memory.stat files of a cgroup dir. */
    private CgroupFiles files(String dir) {
        CgroupFiles f = files.get(dir);
        if (f == null) {
            f = new CgroupFiles(layout.file(dir, Interface.CPU_USAGE), layout.file(dir, Interface.MEMORY_STAT));
            files.put(dir, f);
        }
        f.lastSample = sampleNumber;
        return f;
    }

    private static final class CgroupFiles {
        final Path cpu;
        final Path memory;
        long lastSample;

        CgroupFiles(Path cpu, Path memory) {
            this.cpu = cpu;
            this.memory = memory;
        }
    }

    @Override
    public void close() {
        reader.close();
    }

    private double fail(Path file, String cause) {
        warnings.warn(file.toString(), cause);
        failedNow.add(file.toString());
        return Double.NaN;
    }

    private void ok(Path file) {
        if (!failedBefore.isEmpty() && failedBefore.contains(file.toString())) {
            warnings.resolved(file.toString());
        }
    }

    @Override
    public Map<String, String> problems() {
        return warnings.current();
    }
}
