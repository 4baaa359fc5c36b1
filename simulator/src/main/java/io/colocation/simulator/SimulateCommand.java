package io.colocation.simulator;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.joran.spi.JoranException;
import io.colocation.api.InvalidInputException;
import io.colocation.localclusters.process.PartFailedException;
import io.colocation.simulator.fast.FastSimulation;
import io.colocation.simulator.measure.RunReport;
import io.colocation.simulator.model.trace.OnlineLoad;
import io.colocation.simulator.model.trace.OnlineLoads;
import io.colocation.simulator.real.ClusterObjects;
import io.colocation.simulator.sweep.Sweep;
import io.colocation.simulator.sweep.SweepSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * {@code colocation simulate}: exit 0 when the run finished and its report was written, 1 when an input could not be
 * used (a trace that cannot be read) or a part did not start, 2 for wrong usage. Ctrl-C stops every part.
 */
public final class SimulateCommand {
    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(SimulateCommand.class);
    static final String HELP = SimulateOptions.USAGE_LINE + """


            Runs the real control plane (etcd + kube-apiserver, ZooKeeper, the broker, the k8s-scheduler, the YARN
            ResourceManager with its CapacityScheduler and the colocation plugin) over simulated hosts, each driven by the
            koordlet's own code, through a day of load compressed SPEED times, and reports what colocation bought.

              --nodes N            simulated hosts of 32 cores / 128 GiB (default 100; the standard comparison: 1000)
              --trace T            alibaba2018 (default), azure2019 (both ship with the distribution, CC BY 4.0), a CSV
                                   file with a header row (a cluster curve), or your own hosts' load node by node: a CSV
                                   with columns node (or instance), timestamp, cpu and memory (utilisation 0 to 1, as a
                                   Prometheus export gives it), used as measured
              --trace-column NAME  the CSV column that holds the load (default: the named trace's CPU column, or a file's
                                   first numeric column)
              --trace-step S       seconds between the CSV's rows (default 300)
              --hours H            simulated hours (default 24)
              --speed X            how much faster than real time (default 60: a day in 24 minutes)
              --online-mean P      the cluster's online CPU mean, percent of capacity (default 20; a per-node trace
                                   is used as measured)
              --policy P           partitioned (default), shared (Koordinator's), or off (online only: the baseline)
              --seed S             the seed of the hosts' curves and the work (default 1)
              --slo-config FILE    your own slo-controller-config ConfigMap (YAML or JSON, as kubectl get -o yaml
                                   writes it) instead of the shipped conf/kubernetes/slo-controller-config.yaml; its
                                   two report periods are scaled as the shipped one's are (docs/simulator.md)
              --sweep KEY=FROM..TO:STEP
                                   one run per value of a threshold (for example cpuReclaimThresholdPercent=60..80:5; at
                                   most 20 runs): a table of cluster CPU against evictions + preemptions per 1,000
                                   tasks, the frontier marked; with --report, each run in DIR/KEY=VALUE, and sweep.csv
                                   and sweep.svg in DIR
              --engine E           real (the default up to 300 nodes): the control plane's processes on a clock SPEED times
                                   faster; fast (the default above): their decision code in this JVM on a virtual clock
                                   (SPEED is not used), a day of 1,000 nodes in minutes (docs/simulator.md)
              --delays N=S,...     the fast engine's delays in simulated seconds: brokerPass (10), schedulerCycle (1),
                                   nodeManagerHeartbeat (1), applicationMasterHeartbeat (1), pluginApply (1),
                                   unschedulableFlush (60), yarnReportMinInterval (10), yarnReportRefresh (300)
              --report DIR         also write summary.json, report.txt, samples.csv and cpu.svg into DIR (made if missing)
              --quiet              no progress line

            Exit codes: 0 done, 1 an input that cannot be used or a part that failed, 2 usage.
            """;

    static final String HOSTS_FILE_PROPERTY = "jdk.net.hosts.file";
    static final String LOG_FILE_PROPERTY = "colocation.simulate.log";

    /** Held: java.util.logging keeps loggers weakly, and a collected logger forgets its level. */
    private static final List<java.util.logging.Logger> QUIET = List.of(java.util.logging.Logger.getLogger(""),
            java.util.logging.Logger.getLogger("org.apache.hadoop.shaded.com.sun.jersey"),
            java.util.logging.Logger.getLogger("org.apache.hadoop.shaded.com.google.inject"));

    private SimulateCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * This JVM resolves host names from a file of its own: the ResourceManager looks up every NodeManager's host at each
     * heartbeat and container token, and a thousand simulated hosts that no DNS knows would each cost a lookup that
     * fails (or times out) again and again. The file names this machine, {@code localhost} and every simulated host, all
     * on loopback; it is read when the JVM first resolves a name, so this runs before anything touches the network.
     */
    static void resolveHostsLocally(int nodes) throws IOException {
        if (System.getProperty(HOSTS_FILE_PROPERTY) != null) {
            return;
        }
        StringBuilder b = new StringBuilder("127.0.0.1 localhost\n::1 localhost ip6-localhost\n");
        try {
            String self = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
            if (!self.isEmpty()) {
                b.append("127.0.0.1 ").append(self).append('\n');
            }
        } catch (IOException e) {
            // no kernel host name to add: the JVM then knows this machine as localhost only
        }
        for (int i = 1; i <= nodes; i++) {
            b.append("127.0.0.1 ").append(Simulation.nodeName(i - 1)).append('\n');
        }
        Path file = Files.createTempFile("colocation-simulate-hosts-", "");
        file.toFile().deleteOnExit();
        Files.writeString(file, b.toString());
        System.setProperty(HOSTS_FILE_PROPERTY, file.toString());
    }

    /**
     * Logging was configured when the first class asked for a logger, before the work directory existed (into nothing, by
     * {@code conf/logback-simulate.xml}): it reads its configuration again, now that the file can be named.
     */
    private static void logInto(Path file) {
        System.setProperty(LOG_FILE_PROPERTY, file.toString());
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.reset();
            try {
                new ContextInitializer(context).autoConfig();
            } catch (JoranException e) {
                System.err.println("colocation simulate: cannot log to " + file + ": " + e.getMessage());
            }
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            out.print(HELP);
            return 0;
        }
        SimulateOptions options;
        try {
            options = SimulateOptions.parse(args);
        } catch (SimulateOptions.Usage e) {
            err.println("colocation simulate: " + e.getMessage());
            err.println(SimulateOptions.USAGE_LINE);
            return 2;
        }
        OnlineLoad load;
        ClusterObjects.SloConfig own = null;
        try {
            // before anything starts: a trace that cannot be read is one line, nothing started
            load = OnlineLoads.load(options.trace(), options.traceColumn(), options.traceStepSeconds(), options.nodes(),
                    options.hours() * 3600, options.onlineMeanPercent() / 100, options.seed());
            // and a configuration the broker or the koordlets would refuse
            if (options.sloConfig() != null) {
                own = ClusterObjects.sloConfig(options.sloConfig());
            }
        } catch (InvalidInputException e) {
            err.println("colocation simulate: " + e.getMessage());
            return 1;
        }
        try {
            resolveHostsLocally(options.nodes());
        } catch (IOException e) {
            err.println("colocation simulate: cannot write the simulated hosts' names: " + e.getMessage());
            return 1;
        }
        Path home = Path.of(System.getProperty("colocation.home", System.getenv().getOrDefault("COLOCATION_HOME", ".")));
        if (!Files.isExecutable(home.resolve("bin/colocation"))) {
            err.println("colocation simulate: no bin/colocation under " + home.toAbsolutePath() + " (run it from the distribution)");
            return 2;
        }
        ClusterObjects.SloConfig base;
        List<ClusterObjects.SloConfig> configs = new ArrayList<>();
        SweepSpec spec = options.sweep();
        try {
            base = own != null ? own : ClusterObjects.shippedSloConfig(home.resolve("conf"));
            // every value of a sweep is checked by the same rules before the first run starts
            for (long value : spec == null ? List.<Long>of() : spec.values()) {
                configs.add(ClusterObjects.withThreshold(base, spec.configMapKey(), spec.key(), value));
            }
        } catch (InvalidInputException e) {
            err.println("colocation simulate: " + e.getMessage());
            return 1;
        }
        java.util.logging.LogManager.getLogManager().reset();
        for (java.util.logging.Logger l : QUIET) {
            l.setLevel(java.util.logging.Level.SEVERE);
        }
        if (spec == null) {
            return simulate(options, load, base, home, options.report(), out, err, report -> { });
        }
        Sweep sweep = new Sweep(spec);
        for (int i = 0; i < configs.size(); i++) {
            long value = spec.values().get(i);
            out.println("sweep, run " + (i + 1) + " of " + configs.size() + ": " + spec.run(value));
            Path dir = options.report() == null ? null : options.report().resolve(spec.run(value));
            int status = simulate(options, load, configs.get(i), home, dir, out, err, report -> sweep.add(value, report.summary()));
            if (status != 0) {
                return status;
            }
        }
        out.println();
        out.print(sweep.table());
        if (options.report() != null) {
            try {
                sweep.write(options.report());
            } catch (IOException e) {
                err.println("colocation simulate: cannot write the sweep into " + options.report() + ": " + e.getMessage());
                return 1;
            }
            out.println("sweep: " + options.report().resolve("sweep.csv") + ", " + options.report().resolve("sweep.svg"));
        }
        return 0;
    }

    /** One run of the fast engine: one JVM, nothing to stop; its log stays in {@code work} only when it failed. */
    private static int fast(SimulateOptions options, OnlineLoad load, ClusterObjects.SloConfig slo, Path home, Path work, Path reportDir,
            PrintStream out, PrintStream err, java.util.function.Consumer<RunReport> done) {
        try {
            finished(new FastSimulation(options, load, slo, home, out).run(), reportDir, out, done);
            removeAll(work);
            return 0;
        } catch (InvalidInputException e) {
            err.println("colocation simulate: " + e.getMessage() + " (log in " + work.resolve("logs") + ")");
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        } catch (Exception e) {
            LOG.error("the fast engine failed", e);
            err.println("colocation simulate: " + e + " (log in " + work.resolve("logs") + ")");
            return 1;
        }
    }

    /** A run's table on stdout, its report into {@code reportDir} (made) when not null, then the report to {@code done}. */
    private static void finished(RunReport report, Path reportDir, PrintStream out, java.util.function.Consumer<RunReport> done)
            throws IOException {
        out.println();
        out.print(report.table());
        if (reportDir != null) {
            report.write(Files.createDirectories(reportDir));
            out.println("report: " + reportDir.resolve("summary.json") + ", " + reportDir.resolve("cpu.svg"));
        }
        done.accept(report);
    }

    private static void removeAll(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not remove {}: {}", dir, e.toString());
        }
    }

    /** One run with {@code slo}; its report into {@code reportDir} (made) when not null, then given to {@code done}. */
    private static int simulate(SimulateOptions options, OnlineLoad load, ClusterObjects.SloConfig slo, Path home, Path reportDir, PrintStream out,
            PrintStream err, java.util.function.Consumer<RunReport> done) {
        Path work;
        try {
            work = Files.createTempDirectory("colocation-simulate-");
            logInto(Files.createDirectories(work.resolve("logs")).resolve("simulator.log"));
        } catch (IOException e) {
            err.println("colocation simulate: cannot create a work directory: " + e.getMessage());
            return 1;
        }
        if (options.engine() == SimulateOptions.Engine.FAST) {
            return fast(options, load, slo, home, work, reportDir, out, err, done);
        }
        Simulation simulation = new Simulation(options, load, slo, home, work, out);
        Thread hook = new Thread(() -> {
            out.println("\nstopping every part");
            simulation.close();
        }, "simulate-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            finished(simulation.run(), reportDir, out, done);
            return 0;
        } catch (PartFailedException | InvalidInputException e) {
            simulation.keepLogs();
            err.println("colocation simulate: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        } catch (Exception e) {
            simulation.keepLogs();
            err.println("colocation simulate: " + e + " (logs kept in " + work.resolve("logs") + ")");
            return 1;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
                simulation.close();
            } catch (IllegalStateException shuttingDown) {
                // the hook is already stopping everything
            }
        }
    }
}
