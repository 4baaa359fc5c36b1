package io.colocation.simulator;

import io.colocation.simulator.fast.Delays;
import io.colocation.simulator.sweep.SweepSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What {@code colocation simulate} was asked for; {@link #parse} refuses what makes no sense with one line. */
public record SimulateOptions(int nodes, String trace, String traceColumn, double traceStepSeconds, double hours, double speed,
        double onlineMeanPercent, Policy policy, long seed, Path sloConfig, SweepSpec sweep, Path report, boolean quiet, Engine engine,
        Delays delays) {

    /** How the control plane runs: its real processes on a scaled clock, or its decision code on a virtual one. */
    public enum Engine {
        REAL, FAST;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static Engine of(String s) throws Usage {
            for (Engine e : values()) {
                if (e.label().equals(s)) {
                    return e;
                }
            }
            throw new Usage("--engine must be real or fast, not '" + s + "'");
        }
    }

    /** Above this many nodes the fast engine is the default: the real one needs more cores than a workstation has. */
    public static final int REAL_ENGINE_DEFAULT_MAX_NODES = 300;

    public enum Policy {
        PARTITIONED("partitioned"), SHARED("shared"), OFF("off");

        final String name;

        Policy(String name) {
            this.name = name;
        }

        public String label() {
            return name;
        }

        static Policy of(String s) throws Usage {
            for (Policy p : values()) {
                if (p.name.equals(s)) {
                    return p;
                }
            }
            throw new Usage("--policy must be partitioned, shared or off, not '" + s + "'");
        }
    }

    static final int MAX_NODES = 20_000;
    static final double MAX_SPEED = 1000;

    public static final String USAGE_LINE = "usage: colocation simulate [--nodes N] [--trace alibaba2018|azure2019|FILE.csv] "
            + "[--trace-column NAME] [--trace-step SECONDS] [--hours H] [--speed X] [--online-mean PERCENT] "
            + "[--policy partitioned|shared|off] [--seed S] [--slo-config FILE] [--sweep KEY=FROM..TO:STEP] [--engine real|fast] "
            + "[--delays NAME=SECONDS,...] "
            + "[--report DIR] [--quiet]";

    /** Wrong usage, said in one line. */
    public static final class Usage extends Exception {
        private static final long serialVersionUID = 1L;

        public Usage(String message) {
            super(message);
        }
    }

    public static SimulateOptions defaults() {
        return new SimulateOptions(100, "alibaba2018", null, 300, 24, 60, 20, Policy.PARTITIONED, 1, null, null, null, false, Engine.REAL,
                null);
    }

    public static SimulateOptions parse(String[] args) throws Usage {
        SimulateOptions d = defaults();
        int nodes = d.nodes;
        String trace = d.trace;
        String column = null;
        double step = d.traceStepSeconds;
        double hours = d.hours;
        double speed = d.speed;
        double online = d.onlineMeanPercent;
        Policy policy = d.policy;
        long seed = d.seed;
        Path sloConfig = null;
        SweepSpec sweep = null;
        Path report = null;
        boolean quiet = false;
        Engine engine = null;
        String delays = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                value = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            if (a.equals("--quiet")) {
                quiet = true;
                continue;
            }
            if (!List.of("--nodes", "--trace", "--trace-column", "--trace-step", "--hours", "--speed", "--online-mean", "--policy", "--seed",
                    "--slo-config", "--sweep", "--engine", "--delays", "--report").contains(a)) {
                throw new Usage("unknown argument '" + args[i] + "'");
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new Usage(a + " needs a value");
                }
                value = args[++i];
            }
            switch (a) {
                case "--nodes" -> nodes = (int) integer(a, value, 1, MAX_NODES);
                case "--trace" -> trace = value;
                case "--trace-column" -> column = value;
                case "--trace-step" -> step = number(a, value, 1, 86_400);
                case "--hours" -> hours = number(a, value, 0.01, 24 * 31);
                case "--speed" -> speed = number(a, value, 1, MAX_SPEED);
                case "--online-mean" -> online = number(a, value, 1, 90);
                case "--policy" -> policy = Policy.of(value);
                case "--seed" -> seed = integer(a, value, Long.MIN_VALUE, Long.MAX_VALUE);
                case "--slo-config" -> sloConfig = Path.of(value);
                case "--sweep" -> sweep = sweep(value);
                case "--engine" -> engine = Engine.of(value);
                case "--delays" -> delays = value;
                default -> report = Path.of(value);
            }
        }
        if (sweep != null && policy == Policy.OFF) {
            throw new Usage("--sweep varies a colocation threshold: --policy off runs online work alone, with nothing to vary");
        }
        if (report != null) {
            reportFolder(report);
        }
        if (engine == null) {
            engine = nodes > REAL_ENGINE_DEFAULT_MAX_NODES ? Engine.FAST : Engine.REAL;
        }
        Delays fastDelays = null;
        if (delays != null) {
            if (engine != Engine.FAST) {
                throw new Usage("--delays sets the fast engine's delays: the real engine's parts keep their own (add --engine fast)");
            }
            try {
                fastDelays = Delays.defaults(Simulation.STEP_SECONDS).with(delays);
            } catch (Delays.Invalid e) {
                throw new Usage(e.getMessage());
            }
        }
        return new SimulateOptions(nodes, trace, column, step, hours, speed, online, policy, seed, sloConfig, sweep, report, quiet, engine,
                fastDelays);
    }

    /** The report's folder, made with its parents when missing (as {@code mkdir -p}); a file or an unwritable folder is refused. */
    private static void reportFolder(Path dir) throws Usage {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new Usage("--report: " + dir + " is a file, not a folder");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException | RuntimeException e) {
            throw new Usage("--report: cannot make the folder " + dir + " (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
        if (!Files.isWritable(dir)) {
            throw new Usage("--report: " + dir + " is not writable");
        }
    }

    private static SweepSpec sweep(String value) throws Usage {
        try {
            return SweepSpec.parse(value);
        } catch (SweepSpec.Invalid e) {
            throw new Usage(e.getMessage());
        }
    }

    private static long integer(String flag, String value, long min, long max) throws Usage {
        try {
            long v = Long.parseLong(value.trim());
            if (v < min || v > max) {
                throw new Usage(flag + " must be " + min + " to " + max + ", not " + value);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new Usage(flag + " must be a whole number, not '" + value + "'");
        }
    }

    private static double number(String flag, String value, double min, double max) throws Usage {
        try {
            double v = Double.parseDouble(value.trim());
            if (!(v >= min && v <= max)) {
                throw new Usage(flag + " must be " + trim(min) + " to " + trim(max) + ", not " + value);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new Usage(flag + " must be a number, not '" + value + "'");
        }
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
