package io.colocation.koordlet;

import io.colocation.koordlet.cgroup.CgroupFileWriter;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.collect.CpuTopologyReader;
import io.colocation.koordlet.collect.UsageSource;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.koordlet.kube.NodeWatches;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.agent.ClusterEvictions;
import io.colocation.koordlet.qos.agent.EvictionExecutor;
import io.colocation.koordlet.qos.agent.QoSManager;
import io.colocation.koordlet.qos.agent.QoSOptions;
import io.colocation.koordlet.qos.evict.MemoryPressureEvict;
import io.colocation.koordlet.status.KoordletStatus;
import io.colocation.koordlet.yarn.CopilotClient;
import io.colocation.koordlet.yarn.CopilotListing;
import io.colocation.koordlet.yarn.YarnContainers;
import io.colocation.kube.client.EventRecorder;
import io.colocation.kube.client.KubernetesClients;
import io.colocation.runtime.StatusServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;

/**
 * The node agent put together from its configuration and a {@link UsageSource}: the one assembly of the koordlet.
 * {@code colocation koordlet} gives it this host's kernel ({@code collect.HostUsageSource}); the local harness gives
 * it a replayed load curve for a simulated node.
 */
public final class KoordletAssembly {
    /** The cgroup writes kept for /status. */
    static final int CGROUP_AUDIT_SIZE = 200;

    private KoordletAssembly() {
    }

    /**
     * A running agent and its status endpoint; closing stops both and checkpoints predictions.
     *
     * @param qos the QoS loop; null when it does not enforce on this host
     */
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

        /** Serves until the JVM is asked to stop (SIGTERM, as a DaemonSet's pod is stopped), then closes. */
        public void serveUntilStopped() throws InterruptedException {
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                close();
                stopped.countDown();
            }, "koordlet-shutdown"));
            stopped.await();
        }
    }

    /**
     * Builds and starts the agent on {@code source}'s usage.
     *
     * @param enforceOnThisHost whether the QoS loop runs on this host's cgroups (with {@code qos.enabled}): true where
     *                          {@code source} measures this host, or on purpose for a simulated node whose YARN
     *                          containers run here
     */
    public static Running start(KoordletConfig config, UsageSource source, CgroupLayout layout, boolean enforceOnThisHost, Clock clock)
            throws StartException {
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
            client = KubernetesClients.createForNodeAgent(config.kubernetes.kubeconfig, config.kubernetes.masterUrl);
        } catch (IOException | RuntimeException e) {
            throw new StartException("cannot configure the Kubernetes client: " + e.getMessage(), e);
        }
        Koordlet koordlet = new Koordlet(config, client, new NodeWatches(client, config.nodeName), source, layout, yarn, clock);
        EventRecorder events = new EventRecorder(client, "koordlet");
        QoSManager qos = enforceOnThisHost ? qos(config, koordlet, new CgroupFileWriter(layout, clock, CGROUP_AUDIT_SIZE),
                new ClusterEvictions(client, events, yarn, config.nodeName), () -> CpuTopologyReader.read(Path.of(config.host.sysRoot)), clock)
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

    /**
     * The agent's QoS loop as {@code config.qos} asks (its feature gates, BE options, memory-pressure eviction), writing
     * cgroups through {@code writer} and evicting through {@code evictions}; null with {@code qos.enabled} false. The
     * simulator's hosts build theirs here too, on their model's cgroups.
     */
    public static QoSManager qos(KoordletConfig config, Koordlet koordlet, CgroupWriter writer, EvictionExecutor evictions, QoSManager.CpuTopology topology,
            Clock clock) {
        if (!config.qos.enabled) {
            return null;
        }
        KoordletConfig.MemoryPressureEvict pressure = config.qos.memoryPressureEvict;
        return new QoSManager(koordlet.agentState(), writer, FeatureGates.parse(config.qos.featureGates), new QoSOptions(config.qos.beCpuIdle,
                config.qos.yarnCgroupParent, config.qos.beMemoryHigh, new MemoryPressureEvict.Settings(pressure.enabled,
                        pressure.someAvg10Percent, pressure.forSeconds)), evictions, topology, config.collect.intervalSeconds, clock);
    }

    /** The agent cannot start; the message says what to fix. */
    public static final class StartException extends Exception {
        private static final long serialVersionUID = 1L;

        public StartException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
