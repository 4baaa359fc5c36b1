package io.colocation.simulator.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CPU time and resident memory of the run's processes (the API server, etcd, the broker, the k8s-scheduler, this
 * simulator with the ResourceManager and the hosts), from {@code /proc}: CPU from {@code /proc/<pid>/stat} (user +
 * system, in clock ticks of 1/100 s) between {@link #begin()} and {@link #end()}, RSS from {@code /proc/<pid>/status}
 * at every {@link #sample()}.
 */
public final class ProcessMonitor {
    private static final double TICKS_PER_SECOND = 100.0;

    /** One process's figures over the measured span. */
    public record Figures(String name, long pid, double cpuSeconds, double cpuCores, long rssMeanBytes, long rssMaxBytes) {
    }

    private static final class Watched {
        final String name;
        final long pid;
        long ticksAtBegin = -1;
        long ticksAtEnd = -1;
        long rssSum;
        long rssMax;
        long rssSamples;

        Watched(String name, long pid) {
            this.name = name;
            this.pid = pid;
        }
    }

    private final Path proc;
    private final Map<String, Watched> watched = new LinkedHashMap<>();
    private long beganNanos;
    private long endedNanos;

    public ProcessMonitor(Path proc) {
        this.proc = proc;
    }

    public synchronized void watch(String name, long pid) {
        watched.put(name, new Watched(name, pid));
    }

    public synchronized void begin() {
        beganNanos = System.nanoTime();
        for (Watched w : watched.values()) {
            w.ticksAtBegin = ticks(w.pid);
        }
    }

    public synchronized void sample() {
        for (Watched w : watched.values()) {
            long rss = rss(w.pid);
            if (rss > 0) {
                w.rssSum += rss;
                w.rssSamples++;
                w.rssMax = Math.max(w.rssMax, rss);
            }
        }
    }

    public synchronized void end() {
        endedNanos = System.nanoTime();
        for (Watched w : watched.values()) {
            w.ticksAtEnd = ticks(w.pid);
        }
    }

    public synchronized java.util.List<Figures> figures() {
        double wall = Math.max(1e-9, (endedNanos - beganNanos) / 1e9);
        java.util.List<Figures> out = new java.util.ArrayList<>();
        for (Watched w : watched.values()) {
            double cpu = w.ticksAtBegin < 0 || w.ticksAtEnd < 0 ? Double.NaN : (w.ticksAtEnd - w.ticksAtBegin) / TICKS_PER_SECOND;
            out.add(new Figures(w.name, w.pid, cpu, cpu / wall, w.rssSamples == 0 ? 0 : w.rssSum / w.rssSamples, w.rssMax));
        }
        return out;
    }

    /** utime + stime of the process, in clock ticks; -1 when it cannot be read. */
    long ticks(long pid) {
        try {
            String stat = Files.readString(proc.resolve(pid + "/stat"));
            // the command name (field 2) may hold spaces: count fields after its closing parenthesis
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** VmRSS of the process in bytes; -1 when it cannot be read. */
    long rss(long pid) {
        try {
            for (String line : Files.readAllLines(proc.resolve(pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
