package io.colocation.simulator.model.trace;

import io.colocation.api.InvalidInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The user's own hosts' load, node by node, as a Prometheus export gives it: a CSV with a header naming {@code node}
 * (or {@code instance}), {@code timestamp} (Unix seconds or milliseconds, or RFC 3339), {@code cpu} and optionally
 * {@code memory}, both the node's utilisation as a ratio from 0 to 1 (as {@code instance:node_cpu_utilisation:rate5m}
 * and {@code instance:node_memory_utilisation:ratio} record it), any order of rows. The simulated node {@code i} runs
 * the file's node {@code i mod K} (the K nodes in name order) as its online load, as measured: time starts at the
 * file's first timestamp for every node, so nodes keep their phase, and the file repeats when the run is longer.
 * Between two points the load is interpolated; a row whose cpu or memory is empty or NaN (a gap in the export) is
 * skipped.
 */
public final class PerNodeTrace implements OnlineLoad {
    /** A week of 10,000 nodes every 5 minutes is 20 million rows; beyond that, give a sample of the nodes. */
    public static final long MAX_BYTES = 2L << 30;
    private static final List<String> NODE_COLUMNS = List.of("node", "instance");
    private static final DateTimeFormatter SPACED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSS]", Locale.ROOT);

    private final String source;
    private final String columns;
    private final List<String> names;
    private final Series[] series;
    private final double origin;
    private final double period;
    private final double[] meanCpu;
    private final double[] meanMemory;
    private final boolean hasMemory;

    /** One node's points, by time (seconds). */
    private record Series(double[] time, double[] cpu, double[] memory) {
        double at(double[] values, double t) {
            int i = Arrays.binarySearch(time, t);
            if (i >= 0) {
                return values[i];
            }
            int after = -i - 1;
            if (after == 0) {
                return values[0];
            }
            if (after >= time.length) {
                return values[time.length - 1];
            }
            double f = (t - time[after - 1]) / (time[after] - time[after - 1]);
            return values[after - 1] + f * (values[after] - values[after - 1]);
        }
    }

    private PerNodeTrace(String source, String columns, Map<String, Series> byName, boolean hasMemory, int nodes, double seconds) {
        this.source = source;
        this.columns = columns;
        this.names = List.copyOf(byName.keySet());
        this.series = byName.values().toArray(new Series[0]);
        this.hasMemory = hasMemory;
        double first = Double.MAX_VALUE;
        double last = -Double.MAX_VALUE;
        for (Series s : series) {
            first = Math.min(first, s.time[0]);
            last = Math.max(last, s.time[s.time.length - 1]);
        }
        this.origin = first;
        this.period = last - first + medianGap(series[0].time);
        this.meanCpu = new double[nodes];
        this.meanMemory = new double[nodes];
        double dt = Math.max(60, seconds / 2000);
        for (int n = 0; n < nodes; n++) {
            double cpu = 0;
            double memory = 0;
            int samples = 0;
            for (double t = 0; t < seconds; t += dt) {
                cpu += cpuAt(n, t);
                memory += memoryAt(n, t);
                samples++;
            }
            meanCpu[n] = samples == 0 ? cpuAt(n, 0) : cpu / samples;
            meanMemory[n] = samples == 0 ? memoryAt(n, 0) : memory / samples;
        }
    }

    /** Whether a CSV header is a per-node trace's: it names a node column and {@code timestamp}. */
    public static boolean isPerNode(Path file) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            return header != null && isPerNodeHeader(header(header));
        } catch (java.nio.charset.MalformedInputException e) {
            return false;
        }
    }

    private static boolean isPerNodeHeader(List<String> header) {
        return header.contains("timestamp") && header.stream().anyMatch(NODE_COLUMNS::contains);
    }

    /**
     * Reads the file for a run of {@code nodes} simulated nodes lasting {@code seconds}; every problem names the file, the
     * line and the column.
     */
    public static PerNodeTrace load(Path file, int nodes, double seconds) throws InvalidInputException {
        String source = file.toString();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String headerLine = in.readLine();
            List<String> header = header(headerLine == null ? "" : headerLine);
            if (!isPerNodeHeader(header)) {
                throw new InvalidInputException(source + ": the header names no node (node or instance) and timestamp columns");
            }
            int node = NODE_COLUMNS.stream().mapToInt(header::indexOf).filter(i -> i >= 0).findFirst().orElseThrow();
            int time = header.indexOf("timestamp");
            int cpu = header.indexOf("cpu");
            int memory = header.indexOf("memory");
            if (cpu < 0) {
                throw new InvalidInputException(source + ": no column cpu (columns: " + String.join(", ", header)
                        + "); a per-node trace has node, timestamp, cpu and optionally memory");
            }
            Map<String, Points> points = new TreeMap<>();
            String line;
            int lineNo = 1;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                List<String> c = LoadTrace.cells(line);
                if (c.size() != header.size()) {
                    throw new InvalidInputException(source + ": line " + lineNo + ": " + c.size() + " cells where the header has " + header.size());
                }
                String name = c.get(node);
                if (name.isEmpty()) {
                    throw new InvalidInputException(source + ": line " + lineNo + ", column " + header.get(node) + ": empty");
                }
                double t = timestamp(c.get(time), source, lineNo);
                Double u = ratio(c.get(cpu), "cpu", source, lineNo);
                Double m = memory < 0 ? Double.valueOf(0) : ratio(c.get(memory), "memory", source, lineNo);
                if (u == null || m == null) {
                    continue; // a gap in the export
                }
                points.computeIfAbsent(name, k -> new Points()).add(t, u, m, lineNo);
            }
            if (points.isEmpty()) {
                throw new InvalidInputException(source + ": no data rows");
            }
            Map<String, Series> series = new java.util.LinkedHashMap<>();
            for (Map.Entry<String, Points> e : points.entrySet()) {
                series.put(e.getKey(), e.getValue().series(source, e.getKey()));
            }
            String columns = header.get(node) + ", timestamp, cpu" + (memory < 0 ? "" : ", memory");
            return new PerNodeTrace(source, columns, series, memory >= 0, nodes, seconds);
        } catch (IOException e) {
            throw new InvalidInputException(source + ": cannot be read: " + e.getMessage());
        }
    }

    /** A node's rows as read, then sorted. */
    private static final class Points {
        private double[] t = new double[64];
        private double[] cpu = new double[64];
        private double[] memory = new double[64];
        private int[] line = new int[64];
        private int n;

        void add(double time, double u, double m, int lineNo) {
            if (n == t.length) {
                t = Arrays.copyOf(t, n * 2);
                cpu = Arrays.copyOf(cpu, n * 2);
                memory = Arrays.copyOf(memory, n * 2);
                line = Arrays.copyOf(line, n * 2);
            }
            t[n] = time;
            cpu[n] = u;
            memory[n] = m;
            line[n] = lineNo;
            n++;
        }

        Series series(String source, String name) throws InvalidInputException {
            if (n < 2) {
                throw new InvalidInputException(source + ": node " + name + " has " + n + " point(s); a load curve needs at least 2");
            }
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Double.compare(t[a], t[b]));
            double[] st = new double[n];
            double[] sc = new double[n];
            double[] sm = new double[n];
            for (int i = 0; i < n; i++) {
                st[i] = t[order[i]];
                sc[i] = cpu[order[i]];
                sm[i] = memory[order[i]];
                if (i > 0 && st[i] == st[i - 1]) {
                    throw new InvalidInputException(source + ": lines " + line[order[i - 1]] + " and " + line[order[i]] + ": node " + name
                            + " has two rows at the same timestamp");
                }
            }
            return new Series(st, sc, sm);
        }
    }

    private static double timestamp(String s, String source, int lineNo) throws InvalidInputException {
        try {
            double v = Double.parseDouble(s);
            if (Double.isFinite(v) && v >= 0) {
                return v > 1e11 ? v / 1000 : v; // milliseconds, as Grafana exports them
            }
        } catch (NumberFormatException e) {
            // not a number: a date
        }
        try {
            OffsetDateTime d = OffsetDateTime.parse(s);
            return d.toEpochSecond() + d.getNano() / 1e9;
        } catch (DateTimeParseException e) {
            // not RFC 3339: a date and time in UTC
        }
        try {
            LocalDateTime d = LocalDateTime.parse(s, SPACED);
            return d.toEpochSecond(ZoneOffset.UTC) + d.getNano() / 1e9;
        } catch (DateTimeParseException e) {
            throw new InvalidInputException(source + ": line " + lineNo + ", column timestamp: '" + s + "' is not a time (Unix seconds or"
                    + " milliseconds, RFC 3339 such as 2026-11-28T10:00:00Z, or 2026-11-28 10:00:00 in UTC)");
        }
    }

    /** A utilisation ratio; null for a gap (empty, NaN). */
    private static Double ratio(String s, String column, String source, int lineNo) throws InvalidInputException {
        if (s.isEmpty() || s.equalsIgnoreCase("nan")) {
            return null;
        }
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new InvalidInputException(source + ": line " + lineNo + ", column " + column + ": '" + s + "' is not a number");
        }
        if (!(v >= 0 && v <= 1)) {
            throw new InvalidInputException(source + ": line " + lineNo + ", column " + column + ": " + s + " is not a ratio from 0 to 1 of"
                    + " the node's capacity" + (v > 1 && v <= 100 ? " (a percentage? divide it by 100)" : ""));
        }
        return v;
    }

    /** A header's names, matched whatever their case. */
    private static List<String> header(String line) {
        return LoadTrace.cells(line.startsWith("\uFEFF") ? line.substring(1) : line).stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
    }

    private static double medianGap(double[] time) {
        double[] gaps = new double[time.length - 1];
        for (int i = 1; i < time.length; i++) {
            gaps[i - 1] = time[i] - time[i - 1];
        }
        Arrays.sort(gaps);
        return gaps[gaps.length / 2];
    }

    private Series of(int node) {
        return series[node % series.length];
    }

    private double at(double seconds) {
        return origin + ((seconds % period) + period) % period;
    }

    private double cpuAt(int node, double seconds) {
        Series s = of(node);
        return s.at(s.cpu, at(seconds));
    }

    private double memoryAt(int node, double seconds) {
        Series s = of(node);
        return s.at(s.memory, at(seconds));
    }

    /** The file's nodes, in the order simulated nodes take them. */
    public List<String> fileNodes() {
        return names;
    }

    @Override
    public String traceName() {
        return source;
    }

    @Override
    public String traceColumn() {
        return columns;
    }

    /** As measured, at least 1 % of capacity (as the cluster curves). */
    @Override
    public double onlineCores(int node, double seconds, double capacityCores) {
        return Math.min(capacityCores, Math.max(0.01 * capacityCores, cpuAt(node, seconds) * capacityCores));
    }

    @Override
    public double meanOnlineCores(int node, double capacityCores) {
        return Math.max(0.01, meanCpu[node]) * capacityCores;
    }

    @Override
    public double memoryFactor(int node, double seconds) {
        return !hasMemory || meanMemory[node] <= 0 ? 1 : memoryAt(node, seconds) / meanMemory[node];
    }

    @Override
    public double meanMemoryShare(int node) {
        return hasMemory ? meanMemory[node] : Double.NaN;
    }
}
