package io.colocation.simulator;

import io.colocation.simulator.measure.ClusterSampler;
import java.io.PrintStream;
import java.util.List;

/** The progress line of {@code colocation simulate} on the console (stderr-like: not part of the report). */
public final class RunProgress {
    private final PrintStream out;
    private final boolean quiet;
    /** On a terminal the line is redrawn; elsewhere (a log, a pipe) a line is printed every tenth of the run. */
    private final boolean terminal = System.console() != null;
    private long lastTenth = -1;
    private boolean drawing;

    public RunProgress(PrintStream out, boolean quiet) {
        this.out = out;
        this.quiet = quiet;
    }

    public void say(String line) {
        if (drawing) {
            out.print("\r\033[K");
            drawing = false;
        }
        out.println(line);
    }

    public void progress(long done, long total, ClusterSampler sampler) {
        if (quiet) {
            return;
        }
        List<ClusterSampler.Sample> s = sampler.samples();
        ClusterSampler.Sample last = s.isEmpty() ? null : s.get(s.size() - 1);
        int width = 30;
        int filled = (int) Math.min(width, width * done / Math.max(1, total));
        String bar = "#".repeat(filled) + ".".repeat(width - filled);
        String line = String.format("[%s] %5.1f h of %.1f h | CPU %3.0f %% (online %3.0f %%) | Batch %.0f cores: K8s %.0f, YARN %.0f",
                bar, done / 3.6e6, total / 3.6e6, last == null ? 0 : 100 * last.totalCores() / last.capacityCores(),
                last == null ? 0 : 100 * (last.online() + last.system()) / last.capacityCores(), last == null ? 0 : last.originCores(),
                last == null ? 0 : last.kubernetes(), last == null ? 0 : last.yarn());
        if (terminal) {
            out.print("\r\033[K" + line);
            out.flush();
            drawing = true;
        } else if (10 * done / Math.max(1, total) > lastTenth) {
            lastTenth = 10 * done / Math.max(1, total);
            out.println(line);
        }
    }

    public void done() {
        if (drawing) {
            out.println();
            drawing = false;
        }
    }
}
