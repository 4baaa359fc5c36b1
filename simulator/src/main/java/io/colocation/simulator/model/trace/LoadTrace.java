package io.colocation.simulator.model.trace;

import io.colocation.api.InvalidInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One column of a load trace: a value every {@code stepSeconds}, in any unit, read from a CSV file with a header row.
 * Only the shape matters: {@link #at(double)} interpolates linearly between rows and wraps around at the end, and
 * {@link NodeLoadCurves} scales the curve to the online mean asked for.
 *
 * <p>Two traces ship with the distribution (CC BY 4.0, attribution in {@code traces/README.md} beside them):
 * {@code alibaba2018} (Alibaba cluster-trace-v2018, the average CPU of ~4,000 machines, 8 days) and {@code azure2019}
 * (Azure Public Dataset V2, the CPU of all VMs of a region, 30 days), both every 300 s.
 */
public final class LoadTrace {
    /** The traces that ship with the distribution: name → resource file and the column that holds CPU. */
    static final Map<String, String[]> NAMED = Map.of(
            "alibaba2018", new String[] {"traces/alibaba2018-machine-usage-8days-300s.csv", "cpu_util_percent"},
            "azure2019", new String[] {"traces/azure2019-vm-cpu-month-300s.csv", "cpu_usage"});
    private static final long MAX_BYTES = 64L * 1024 * 1024;
    /** Far above any load in any unit (bytes included), and far enough below a double's range that means stay exact. */
    static final double MAX_VALUE = 1e15;

    private final String name;
    private final String column;
    private final double stepSeconds;
    private final double[] values;

    private LoadTrace(String name, String column, double stepSeconds, double[] values) {
        this.name = name;
        this.column = column;
        this.stepSeconds = stepSeconds;
        this.values = values;
    }

    /**
     * A named trace ({@code alibaba2018}, {@code azure2019}) or a CSV file.
     *
     * @param column      the column to read; null: the named trace's CPU column, or a file's first numeric column
     * @param stepSeconds seconds between rows (above 0)
     */
    public static LoadTrace load(String trace, String column, double stepSeconds) throws InvalidInputException {
        if (!(stepSeconds > 0) || Double.isInfinite(stepSeconds)) {
            throw new InvalidInputException("--trace-step: " + stepSeconds + " is not a number of seconds above 0");
        }
        String[] named = NAMED.get(trace);
        if (named != null) {
            try (InputStream in = LoadTrace.class.getClassLoader().getResourceAsStream(named[0])) {
                if (in == null) {
                    throw new InvalidInputException("--trace " + trace + ": " + named[0] + " is missing from the distribution");
                }
                return parse(trace, in, column == null ? named[1] : column, stepSeconds);
            } catch (IOException e) {
                throw new InvalidInputException("--trace " + trace + ": cannot be read: " + e.getMessage());
            }
        }
        try (InputStream in = Files.newInputStream(csvFile(trace, MAX_BYTES))) {
            return parse(trace, in, column, stepSeconds);
        } catch (IOException e) {
            throw new InvalidInputException(trace + ": cannot be read: " + e.getMessage());
        }
    }

    /** Whether {@code trace} names one of the traces that ship with the distribution. */
    public static boolean isNamed(String trace) {
        return NAMED.containsKey(trace);
    }

    /** The CSV file {@code trace} names, refused in one line when it is missing, not a regular file or larger than {@code maxBytes}. */
    static Path csvFile(String trace, long maxBytes) throws InvalidInputException {
        Path file = Path.of(trace);
        if (!trace.toLowerCase(Locale.ROOT).endsWith(".csv") && !Files.exists(file)) {
            throw new InvalidInputException("--trace: '" + trace + "' is neither " + String.join(" nor ", NAMED.keySet().stream().sorted()
                    .toList()) + " nor a CSV file");
        }
        try {
            if (!Files.exists(file)) {
                throw new InvalidInputException(trace + ": no such file");
            }
            if (!Files.isRegularFile(file)) {
                throw new InvalidInputException(trace + ": not a regular file (" + (Files.isDirectory(file) ? "a directory"
                        : "a device, a FIFO or a socket") + "); give a CSV file");
            }
            if (Files.size(file) > maxBytes) {
                throw new InvalidInputException(trace + ": larger than " + (maxBytes >> 20) + " MiB; give a load curve, not a raw trace");
            }
            return file;
        } catch (IOException e) {
            throw new InvalidInputException(trace + ": cannot be read: " + e.getMessage());
        }
    }

    /** Parses a CSV stream: a header, then rows; {@code column} null takes the first column whose first row is a number. */
    public static LoadTrace parse(String source, InputStream in, String column, double stepSeconds) throws InvalidInputException, IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String header = reader.readLine();
        if (header == null || header.isBlank()) {
            throw new InvalidInputException(source + ": empty; a CSV file with a header row is expected");
        }
        List<String> names = cells(header.startsWith("\uFEFF") ? header.substring(1) : header);
        List<String[]> rows = new ArrayList<>();
        String line;
        int lineNo = 1;
        while ((line = reader.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            List<String> cells = cells(line);
            if (cells.size() != names.size()) {
                throw new InvalidInputException(source + ": line " + lineNo + ": " + cells.size() + " cells where the header has "
                        + names.size());
            }
            rows.add(cells.toArray(new String[0]));
        }
        if (rows.size() < 2) {
            throw new InvalidInputException(source + ": " + rows.size() + " data row(s); a curve needs at least 2");
        }
        int index;
        if (column != null) {
            index = names.indexOf(column);
            if (index < 0) {
                throw new InvalidInputException(source + ": no column '" + column + "' (columns: " + String.join(", ", names) + ")");
            }
        } else {
            index = -1;
            for (int i = 0; i < names.size() && index < 0; i++) {
                if (number(rows.get(0)[i]) != null) {
                    index = i;
                }
            }
            if (index < 0) {
                throw new InvalidInputException(source + ": no numeric column in the first data row; name one with --trace-column");
            }
        }
        double[] values = new double[rows.size()];
        for (int r = 0; r < rows.size(); r++) {
            Double v = number(rows.get(r)[index]);
            if (v == null || v < 0 || v > MAX_VALUE) {
                throw new InvalidInputException(source + ": line " + (r + 2) + ", column " + names.get(index) + ": '" + rows.get(r)[index]
                        + "' is not a number from 0 to 10^15 (any unit, only the curve's shape counts)");
            }
            values[r] = v;
        }
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        if (!(sum > 0)) {
            throw new InvalidInputException(source + ": column " + names.get(index) + " is 0 everywhere; a load curve needs a shape");
        }
        return new LoadTrace(source, names.get(index), stepSeconds, values);
    }

    /** A CSV line's cells, trimmed, without their quotes. */
    static List<String> cells(String line) {
        List<String> out = new ArrayList<>();
        for (String c : line.split(",", -1)) {
            String t = c.trim();
            if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
                t = t.substring(1, t.length() - 1);
            }
            out.add(t);
        }
        return out;
    }

    private static Double number(String s) {
        try {
            double d = Double.parseDouble(s);
            return Double.isFinite(d) ? d : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The trace's value {@code seconds} after its first row, interpolated, the trace repeated past its end. */
    public double at(double seconds) {
        double period = values.length * stepSeconds;
        double t = ((seconds % period) + period) % period;
        double pos = t / stepSeconds;
        int i = (int) Math.floor(pos);
        double f = pos - i;
        double a = values[i % values.length];
        double b = values[(i + 1) % values.length];
        return a + f * (b - a);
    }

    /** The mean of {@link #at} over {@code [from, to)} seconds, sampled every {@code stepSeconds / 10}. */
    public double mean(double fromSeconds, double toSeconds) {
        double dt = stepSeconds / 10;
        double sum = 0;
        long n = 0;
        for (double t = fromSeconds; t < toSeconds; t += dt) {
            sum += at(t);
            n++;
        }
        return n == 0 ? at(fromSeconds) : sum / n;
    }

    public String name() {
        return name;
    }

    public String column() {
        return column;
    }

    public double stepSeconds() {
        return stepSeconds;
    }

    public int rows() {
        return values.length;
    }
}
