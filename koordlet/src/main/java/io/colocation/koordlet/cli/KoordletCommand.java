package io.colocation.koordlet.cli;

import io.colocation.koordlet.KoordletAssembly;
import io.colocation.koordlet.KoordletAssembly.StartException;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.collect.HostUsageSource;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.runtime.YamlConfigLoader;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code colocation koordlet CONFIG}: runs the node agent until stopped. Start-up problems (configuration, API
 * server, missing CRD, status port) are one line on stderr and exit status 2; {@code --verbose} adds the trace.
 */
public final class KoordletCommand {
    private static final Logger LOG = LoggerFactory.getLogger(KoordletCommand.class);

    public static void main(String[] args) {
        boolean verbose = false;
        String file = null;
        String featureGates = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--verbose")) {
                verbose = true;
            } else if (a.startsWith("--feature-gates")) {
                featureGates = a.contains("=") ? a.substring(a.indexOf('=') + 1) : i + 1 < args.length ? args[++i] : "";
            } else if (a.equals("-h") || a.equals("--help")) {
                System.out.println("Usage: colocation koordlet [--verbose] [--feature-gates=BEMemoryEvict=true,...] CONFIG"
                        + "   (for example conf/koordlet.yml)");
                return;
            } else if (file == null) {
                file = a;
            } else {
                fail(System.err, "unexpected argument '" + a + "'", null, false);
                return;
            }
        }
        if (file == null) {
            fail(System.err, "give the configuration file, for example: colocation koordlet conf/koordlet.yml", null, false);
            return;
        }
        try {
            KoordletConfig config = KoordletConfig.loader().load(Path.of(file));
            if (featureGates != null) {
                try {
                    FeatureGates.parse(featureGates);
                } catch (IllegalArgumentException e) {
                    fail(System.err, "--feature-gates: " + e.getMessage(), null, false);
                    return;
                }
                config.qos.featureGates = featureGates;
            }
            KoordletAssembly.Running running = start(config, Clock.systemUTC());
            LOG.info("koordlet for node {} started; status on http://{}:{}/status", config.nodeName,
                    running.statusAddress().getHostString(), running.statusAddress().getPort());
            running.serveUntilStopped();
        } catch (YamlConfigLoader.ConfigException | StartException e) {
            fail(System.err, e.getMessage(), e, verbose);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void fail(PrintStream err, String message, Exception e, boolean verbose) {
        err.println("colocation koordlet: " + message);
        if (verbose && e != null) {
            e.printStackTrace(err);
        }
        System.exit(2);
    }

    /** The agent on this host's kernel, as the configuration asks. */
    public static KoordletAssembly.Running start(KoordletConfig config, Clock clock) throws StartException {
        CgroupLayout layout = CgroupLayout.detect(config.cgroupRoot(), config.host.cgroupVersion, config.host.cgroupDriver);
        if (!Files.isReadable(config.procRoot().resolve("stat"))) {
            throw new StartException("host.procRoot '" + config.host.procRoot + "' has no readable stat file; is /proc mounted there?", null);
        }
        return KoordletAssembly.start(config, new HostUsageSource(config.procRoot(), layout), layout, true, clock);
    }
}
