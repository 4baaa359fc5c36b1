package io.colocation.harness.koordlet;

import io.colocation.api.InvalidInputException;
import io.colocation.koordlet.KoordletAssembly;
import io.colocation.koordlet.KoordletAssembly.StartException;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.runtime.YamlConfigLoader;
import java.nio.file.Path;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The koordlet of a simulated node: the agent's one assembly ({@link KoordletAssembly}) with its usage replayed from a
 * {@link LoadCurve} instead of read from this host's kernel, so one machine runs a koordlet per simulated node. It
 * leaves this host's cgroups alone unless told to enforce on them: then its QoS loop decides from the replayed load and
 * writes this host's BE tier, where the node's real YARN containers run (the sandbox's first node).
 *
 * <p>Run as {@code ReplayingKoordlet CONFIG LOAD_FILE [--enforce-on-this-host]} ({@link KoordletProcess}); settings
 * beyond the file as {@code -Dkoordlet.<path>=value}, as for {@code colocation koordlet}.
 */
public final class ReplayingKoordlet {
    private static final Logger LOG = LoggerFactory.getLogger(ReplayingKoordlet.class);
    static final String ENFORCE = "--enforce-on-this-host";

    private ReplayingKoordlet() {
    }

    /** Starts the agent of {@code config}'s node on the load in {@code loadFile}. */
    public static KoordletAssembly.Running start(KoordletConfig config, Path loadFile, boolean enforceOnThisHost, Clock clock)
            throws StartException {
        LoadCurve curve;
        try {
            curve = LoadCurve.read(loadFile);
        } catch (InvalidInputException e) {
            throw new StartException("load curve " + loadFile + ": " + e.getMessage(), e);
        }
        CgroupLayout layout = CgroupLayout.detect(config.cgroupRoot(), config.host.cgroupVersion, config.host.cgroupDriver);
        return KoordletAssembly.start(config, new LoadCurveUsageSource(loadFile, curve, clock.millis()), layout, enforceOnThisHost, clock);
    }

    public static void main(String[] args) {
        if (args.length < 2 || args.length > 3 || args.length == 3 && !args[2].equals(ENFORCE)) {
            System.err.println("usage: ReplayingKoordlet CONFIG LOAD_FILE [" + ENFORCE + "]");
            System.exit(2);
        }
        try {
            KoordletConfig config = KoordletConfig.loader().load(Path.of(args[0]));
            KoordletAssembly.Running running = start(config, Path.of(args[1]), args.length == 3, Clock.systemUTC());
            LOG.info("koordlet for simulated node {} replaying {}; status on http://{}:{}/status", config.nodeName, args[1],
                    running.statusAddress().getHostString(), running.statusAddress().getPort());
            running.serveUntilStopped();
        } catch (YamlConfigLoader.ConfigException | StartException e) {
            System.err.println("koordlet of a simulated node: " + e.getMessage());
            System.exit(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
