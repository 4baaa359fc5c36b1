package io.colocation.simulator.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The runs of one {@code --sweep}, one per value, and their frontier: the values no other value beats on both cluster CPU
 * (higher) and evictions + preemptions per 1,000 batch tasks (fewer). A value with overcommit samples is never on it:
 * its CPU came from work the node did not have room for.
 */
public final class Sweep {
    /** One run's figures, from its {@code summary.json}. */
    public record Point(long value, double cpuMeanPercent, double disruptionsPerThousand, long overcommitSamples,
            double onlineShortSharePercent) {
        static Point of(long value, JsonNode summary) {
            return new Point(value, summary.path("cpu").path("meanPercent").asDouble(),
                    summary.path("perThousandBatchTasks").path("evictionsAndPreemptions").asDouble(), summary.path("overcommitSamples").asLong(),
                    summary.path("onlineShortShareOfDemandPercent").asDouble());
        }

        boolean beats(Point o) {
            return cpuMeanPercent >= o.cpuMeanPercent && disruptionsPerThousand <= o.disruptionsPerThousand
                    && (cpuMeanPercent > o.cpuMeanPercent || disruptionsPerThousand < o.disruptionsPerThousand);
        }
    }

    private final SweepSpec spec;
    private final List<Point> points = new ArrayList<>();

    public Sweep(SweepSpec spec) {
        this.spec = spec;
    }

    public SweepSpec spec() {
        return spec;
    }

    /** Records the run of {@code value}. */
    public void add(long value, JsonNode summary) {
        points.add(Point.of(value, summary));
    }

    public List<Point> points() {
        return List.copyOf(points);
    }

    /** The values on the frontier, by cluster CPU. */
    public List<Point> frontier() {
        List<Point> out = new ArrayList<>();
        for (Point p : points) {
            if (p.overcommitSamples() == 0 && points.stream().filter(q -> q.overcommitSamples() == 0).noneMatch(q -> q.beats(p))) {
                out.add(p);
            }
        }
        out.sort(java.util.Comparator.comparingDouble(Point::cpuMeanPercent));
        return out;
    }

    public String table() {
        List<Point> frontier = frontier();
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-36s %12s %22s %12s %14s  %s%n", spec.key(), "cluster CPU",
                "evictions+preemptions", "overcommit", "online short", "frontier"));
        b.append(String.format(Locale.ROOT, "%-36s %12s %22s %12s %14s%n", "", "mean", "per 1,000 tasks", "samples", "of demand"));
        for (Point p : points) {
            b.append(String.format(Locale.ROOT, "%-36d %10.1f %% %22.1f %12d %12.2f %%  %s%n", p.value(), p.cpuMeanPercent(),
                    p.disruptionsPerThousand(), p.overcommitSamples(), p.onlineShortSharePercent(), frontier.contains(p) ? "*" : ""));
        }
        return b.toString();
    }

    /** {@code sweep.csv} (one row per value) and {@code sweep.svg} (the frontier) into {@code dir}. */
    public void write(Path dir) throws IOException {
        List<Point> frontier = frontier();
        StringBuilder csv = new StringBuilder(spec.key() + ",cpuMeanPercent,evictionsAndPreemptionsPerThousandTasks,overcommitSamples,"
                + "onlineShortShareOfDemandPercent,frontier\n");
        for (Point p : points) {
            csv.append(String.format(Locale.ROOT, "%d,%.2f,%.2f,%d,%.3f,%b%n", p.value(), p.cpuMeanPercent(), p.disruptionsPerThousand(),
                    p.overcommitSamples(), p.onlineShortSharePercent(), frontier.contains(p)));
        }
        Files.writeString(dir.resolve("sweep.csv"), csv.toString());
        Files.writeString(dir.resolve("sweep.svg"), FrontierChart.svg(spec.key(), points, frontier));
    }
}
