package io.colocation.koordlet.collect;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's own CPU time, for tests that compare it with what the koordlet measured. */
public final class ProcessCpuTime {
    private ProcessCpuTime() {
    }

    /** utime + stime of all its threads, from /proc/<pid>/stat, in clock ticks (10 ms). */
    public static long ticks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
