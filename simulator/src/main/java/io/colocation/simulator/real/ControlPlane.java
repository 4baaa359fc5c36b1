package io.colocation.simulator.real;

import io.colocation.harness.BrokerProcess;
import io.colocation.harness.SchedulerProcess;
import io.colocation.helpers.time.ScaledClock;
import io.colocation.localclusters.process.ChildProcess;
import io.colocation.localclusters.process.PartFailedException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The broker and the k8s-scheduler, each its own process started through the distribution's launcher as a real
 * install runs it ({@link BrokerProcess}, {@link SchedulerProcess}, as the sandbox starts them), on the simulation's
 * scaled clock, with the time-scaled settings of {@link #BROKER_OVERRIDES}.
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
    static final String LOAD_AWARE_ARGS = "{filterExpiredNodeMetrics: false, nodeMetricExpirationSeconds: 300,"
            + " usageThresholds: {cpu: 0, memory: 0}, estimatedScalingFactors: {cpu: 85, memory: 70}}";

    private final List<ChildProcess> processes = new ArrayList<>();
    private BrokerProcess broker;
    private SchedulerProcess scheduler;

    /** Starts the broker and waits until its API answers. */
    public void startBroker(Path home, Path work, Path kubeconfig, String zk, String policy, ScaledClock clock, int nodes)
            throws PartFailedException {
        List<String> opts = new ArrayList<>(BROKER_OVERRIDES);
        opts.addAll(clockProperties(clock));
        broker = BrokerProcess.start(home, kubeconfig, zk, policy, opts, heapMb(nodes), work.resolve("logs/broker.log"),
                Duration.ofSeconds(180));
        processes.add(broker.process());
    }

    /** Starts the k8s-scheduler (no leader election: one replica) and waits until it is ready. */
    public void startScheduler(Path home, Path work, Path kubeconfig, ScaledClock clock, int nodes) throws PartFailedException {
        List<String> opts = new ArrayList<>(List.of("-Xmx" + heapMb(nodes) + "m"));
        opts.addAll(clockProperties(clock));
        scheduler = SchedulerProcess.start(home, work, kubeconfig, SCHEDULER_NAME, LOAD_AWARE_ARGS, null, """
                leaderElection: {enabled: false}
                clientQps: 500
                clientBurst: 500
                """, opts, work.resolve("logs/k8s-scheduler.log"), Duration.ofSeconds(180), null);
        processes.add(scheduler.process());
    }

    static List<String> clockProperties(ScaledClock clock) {
        return List.of("-D" + ScaledClock.SPEED_PROPERTY + "=" + clock.speed(), "-D" + ScaledClock.ORIGIN_PROPERTY + "=" + clock.originMillis());
    }

    private static int heapMb(int nodes) {
        return Math.max(256, Math.min(4096, 256 + nodes));
    }

    /** A GET of the broker's or the scheduler's URL path; null when it does not answer 200. */
    public String get(boolean fromBroker, String path) {
        if (fromBroker) {
            return broker == null ? null : broker.get(path);
        }
        return scheduler == null ? null : scheduler.get(path);
    }

    public String brokerUrl() {
        return broker.url();
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
