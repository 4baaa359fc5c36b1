package io.colocation.simulator.real;

import io.colocation.helpers.time.ScaledClock;
import io.colocation.localclusters.LoopbackPorts;
import io.colocation.localclusters.process.ChildProcess;
import io.colocation.localclusters.process.PartFailedException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The broker and the k8s-scheduler, each its own process started through the distribution's launcher as a real
 * install runs it ({@code conf/broker.yml} and a scheduler configuration written here), on the simulation's scaled
 * clock, with the time-scaled settings of {@link #BROKER_OVERRIDES}.
 */
public final class ControlPlane implements AutoCloseable {
    public static final String SCHEDULER_NAME = "koord-scheduler";
    /**
     * What the broker is told beyond {@code conf/broker.yml}: YARN reports count as fresh for 900 simulated seconds
     * (three of the plugin's refreshes, which are every 300 simulated seconds here: see the simulator's YARN settings);
     * everything else is the shipped file (its sync interval of 1 s is wall-clock time).
     */
    static final List<String> BROKER_OVERRIDES = List.of("-Ddw.yarn.reportStaleSeconds=900", "-Ddw.arbitration.kubernetesShrinkSettleMillis=0");
    /**
     * LoadAwareScheduling as Koordinator's shipped koord-scheduler manifest configures it: usage thresholds 0 (its filter
     * off; the broker's grant in batch-cpu is what bounds batch), NodeMetrics not filtered when expired (300 s), the
     * scaling factors 85 % CPU and 70 % memory for the score.
     */
    static final String SCHEDULER_PROFILE = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: %s
              pluginConfig:
              - name: LoadAwareScheduling
                args:
                  filterExpiredNodeMetrics: false
                  nodeMetricExpirationSeconds: 300
                  usageThresholds: {cpu: 0, memory: 0}
                  estimatedScalingFactors: {cpu: 85, memory: 70}
            """;

    private final List<ChildProcess> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private String brokerUrl;
    private String schedulerUrl;
    private String token;

    /** Starts the broker and waits until its API answers. */
    public void startBroker(Path home, Path work, Path kubeconfig, String zk, String policy, ScaledClock clock, int nodes)
            throws PartFailedException {
        int port = LoopbackPorts.pick();
        token = UUID.randomUUID().toString();
        brokerUrl = "http://127.0.0.1:" + port;
        List<String> opts = new ArrayList<>(List.of("-Ddw.kubernetes.kubeconfig=" + kubeconfig, "-Ddw.zookeeper.connect=" + zk,
                "-Ddw.arbitration.policy=" + policy, "-Ddw.server.applicationConnectors[0].bindHost=127.0.0.1",
                "-Ddw.server.applicationConnectors[0].port=" + port, "-Ddw.server.adminConnectors[0].bindHost=127.0.0.1",
                "-Ddw.server.adminConnectors[0].port=" + LoopbackPorts.pick(), "-Xmx" + heapMb(nodes) + "m"));
        opts.addAll(BROKER_OVERRIDES);
        opts.addAll(clockProperties(clock));
        processes.add(ChildProcess.start("broker", home.resolve("bin/colocation"), List.of("broker", home.resolve("conf/broker.yml")
                .toString()), opts, Map.of("COLOCATION_BROKER_TOKEN", token), work.resolve("logs/broker.log"), Duration.ofSeconds(180),
                () -> answers(brokerUrl + "/api/v1/nodes")));
    }

    /** Starts the k8s-scheduler (no leader election: one replica) and waits until it is ready. */
    public void startScheduler(Path home, Path work, Path kubeconfig, ScaledClock clock, int nodes) throws PartFailedException {
        int port = LoopbackPorts.pick();
        schedulerUrl = "http://127.0.0.1:" + port;
        Path profile = work.resolve("k8s-scheduler-profile.yaml");
        Path config = work.resolve("k8s-scheduler.yml");
        try {
            Files.writeString(profile, SCHEDULER_PROFILE.formatted(SCHEDULER_NAME));
            Files.writeString(config, """
                    schedulerName: %s
                    profileFile: %s
                    kubernetes: {kubeconfig: %s, startupTimeoutSeconds: 120}
                    leaderElection: {enabled: false}
                    clientQps: 500
                    clientBurst: 500
                    status: {bindAddress: 127.0.0.1, port: %d}
                    """.formatted(SCHEDULER_NAME, profile, kubeconfig, port));
        } catch (IOException e) {
            throw new PartFailedException("k8s-scheduler", "cannot write its configuration: " + e.getMessage(), null);
        }
        List<String> opts = new ArrayList<>(List.of("-Xmx" + heapMb(nodes) + "m"));
        opts.addAll(clockProperties(clock));
        processes.add(ChildProcess.start("k8s-scheduler", home.resolve("bin/colocation"), List.of("k8s-scheduler", config.toString()), opts,
                Map.of(), work.resolve("logs/k8s-scheduler.log"), Duration.ofSeconds(180), () -> answers(schedulerUrl + "/readyz")));
    }

    static List<String> clockProperties(ScaledClock clock) {
        return List.of("-D" + ScaledClock.SPEED_PROPERTY + "=" + clock.speed(), "-D" + ScaledClock.ORIGIN_PROPERTY + "=" + clock.originMillis());
    }

    private static int heapMb(int nodes) {
        return Math.max(256, Math.min(4096, 256 + nodes));
    }

    private boolean answers(String url) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3)).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A GET of the broker's or the scheduler's URL path; null when it does not answer 200. */
    public String get(boolean broker, String path) {
        String base = broker ? brokerUrl : schedulerUrl;
        if (base == null) {
            return null;
        }
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    public String brokerUrl() {
        return brokerUrl;
    }

    public String token() {
        return token;
    }

    /** The processes started, by name → pid. */
    public Map<String, Long> pids() {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (ChildProcess p : processes) {
            out.put(p.name(), p.pid());
        }
        return out;
    }

    /** Names of the parts that exited on their own. */
    public List<String> dead() {
        return processes.stream().filter(p -> !p.alive()).map(ChildProcess::name).toList();
    }

    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).close();
        }
        processes.clear();
    }
}
