package io.colocation.koordlet.cli;

import io.colocation.api.InvalidInputException;
import io.colocation.koordlet.Koordlet;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.cgroup.CgroupFileWriter;
import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.collect.CpuTopologyReader;
import io.colocation.koordlet.collect.HostUsageSource;
import io.colocation.koordlet.collect.UsageSource;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.runtime.YamlConfigLoader;
import io.colocation.koordlet.kube.NodeWatches;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.agent.ClusterEvictions;
import io.colocation.koordlet.qos.agent.QoSManager;
import io.colocation.koordlet.qos.agent.QoSOptions;
import io.colocation.koordlet.qos.evict.MemoryPressureEvict;
import io.colocation.koordlet.sim.LoadCurve;
import io.colocation.koordlet.sim.SimulatedUsageSource;
import io.colocation.koordlet.status.KoordletStatus;
import io.colocation.runtime.StatusServer;
import io.colocation.koordlet.yarn.CopilotClient;
import io.colocation.koordlet.yarn.CopilotListing;
import io.colocation.koordlet.yarn.YarnContainers;
import io.colocation.kube.client.EventRecorder;
import io.colocation.kube.client.KubernetesClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code colocation koordlet CONFIG}: runs the node agent until stopped. Start-up problems (configuration, API
 * server, missing CRD, status port) are one line on stderr and exit status 2; {@code --verbose} adds the trace.
 */
public final class KoordletCommand {
    private static final Logger LOG = LoggerFactory.getLogger(KoordletCommand.class);
    /** The cgroup writes kept for /status. */
    static final int CGROUP_AUDIT_SIZE = 200;

    /** A running agent and its status endpoint; closing stops both and checkpoints predictions. */
    /** @param qos the QoS loop; null on a simulated host or with qos.enabled false */
    public record Running(Koordlet koordlet, QoSManager qos, StatusServer status, InetSocketAddress statusAddress,
            KubernetesClient client, EventRecorder events) implements AutoCloseable {
        @Override
        public void close() {
            if (qos != null) {
                qos.close();
            }
            status.close();
            koordlet.close();
            events.close();
            client.close();
        }
    }

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
            Running running = start(config, Clock.systemUTC());
            LOG.info("koordlet for node {} started; status on http://{}:{}/status", config.nodeName,
                    running.statusAddress().getHostString(), running.statusAddress().getPort());
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                running.close();
                stopped.countDown();
            }, "koordlet-shutdown"));
            stopped.await();
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

    /** Builds and starts everything the configuration asks for. */
    public static Running start(KoordletConfig config, Clock clock) throws StartException {
        CgroupLayout layout = CgroupLayout.detect(config.cgroupRoot(), config.host.cgroupVersion, config.host.cgroupDriver);
        UsageSource source;
        if (config.simulatedLoadFile != null && !config.simulatedLoadFile.isBlank()) {
            try {
                source = new SimulatedUsageSource(Path.of(config.simulatedLoadFile), LoadCurve.read(Path.of(config.simulatedLoadFile)),
                        clock.millis());
            } catch (InvalidInputException e) {
                throw new StartException("simulatedLoadFile: " + e.getMessage(), e);
            }
        } else {
            if (!Files.isReadable(config.procRoot().resolve("stat"))) {
                throw new StartException("host.procRoot '" + config.host.procRoot + "' has no readable stat file; is /proc mounted there?", null);
            }
            source = new HostUsageSource(config.procRoot(), layout);
        }
        YarnContainers yarn = null;
        if (config.yarn.copilotUrl != null && !config.yarn.copilotUrl.isBlank()) {
            try {
                yarn = new CopilotListing(CopilotClient.create(config.yarn.copilotUrl, config.yarn.tokenFile, config.procRoot(),
                        config.yarn.nodeManagerUsers), QoSOptions.yarnParent(config.qos.yarnCgroupParent, layout.qosDir("BestEffort")),
                        config.yarn.refreshSeconds, clock);
            } catch (IOException e) {
                throw new StartException(e.getMessage(), e);
            }
        }
        KubernetesClient client;
        try {
            client = KubernetesClients.create(config.kubernetes.kubeconfig, config.kubernetes.masterUrl);
        } catch (IOException | RuntimeException e) {
            throw new StartException("cannot configure the Kubernetes client: " + e.getMessage(), e);
        }
        Koordlet koordlet = new Koordlet(config, client, new NodeWatches(client, config.nodeName), source, layout, yarn, clock);
        EventRecorder events = new EventRecorder(client, "koordlet");
        // The BE tier of this host's cgroups is enforced when the usage is this host's, or on purpose for a simulated
        // node whose YARN containers run here (the sandbox).
        QoSManager qos = (source instanceof HostUsageSource || config.qos.enforceOnSimulatedLoad) && config.qos.enabled
                ? new QoSManager(koordlet.agentState(), new CgroupFileWriter(layout, clock, CGROUP_AUDIT_SIZE),
                        FeatureGates.parse(config.qos.featureGates), new QoSOptions(config.qos.beCpuIdle, config.qos.yarnCgroupParent,
                                config.qos.beMemoryHigh, new MemoryPressureEvict.Settings(config.qos.memoryPressureEvict.enabled,
                                        config.qos.memoryPressureEvict.someAvg10Percent, config.qos.memoryPressureEvict.forSeconds)),
                        new ClusterEvictions(client, events, yarn, config.nodeName), () -> CpuTopologyReader.read(Path.of(config.host.sysRoot)),
                        config.collect.intervalSeconds, clock)
                : null;
        StatusServer status = new KoordletStatus(koordlet, qos).server();
        try {
            InetSocketAddress address = status.start(config.status.bindAddress, config.status.port);
            koordlet.start();
            if (qos != null) {
                qos.start();
            }
            return new Running(koordlet, qos, status, address, client, events);
        } catch (IOException e) {
            status.close();
            events.close();
            client.close();
            throw new StartException("status.port " + config.status.port + " on " + config.status.bindAddress + " cannot be opened: "
                    + e.getMessage(), e);
        } catch (NodeWatches.StartupException e) {
            status.close();
            koordlet.close();
            events.close();
            client.close();
            throw new StartException("API server " + client.getConfiguration().getMasterUrl() + ": " + e.getMessage(), e);
        }
    }

    /** The agent cannot start; the message says what to fix. */
    public static final class StartException extends Exception {
        private static final long serialVersionUID = 1L;

        StartException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
