package io.colocation.simulator.real;

import io.colocation.koordlet.Koordlet;
import io.colocation.koordlet.KoordletAssembly;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.koordlet.kube.NodeView;
import io.colocation.koordlet.kube.NodeWatches;
import io.colocation.koordlet.qos.Processor;
import io.colocation.koordlet.qos.agent.ClusterEvictions;
import io.colocation.koordlet.qos.agent.QoSManager;
import io.colocation.koordlet.report.NodeMetricReporter;
import io.colocation.koordlet.yarn.YarnContainers;
import io.colocation.kube.client.EventRecorder;
import io.colocation.simulator.model.host.SimulatedHost;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One simulated host with its koordlet: the agent's own code (its collector reading the host model, its peak predictor,
 * its NodeMetric reporter, its QoS strategies writing the host's cgroups and evicting through the Eviction API and the
 * YarnRelease route, or killing through the NodeManager), its loops driven step by step on the
 * simulated clock instead of by its own threads.
 */
public final class HostAgent implements AutoCloseable {
    private final SimulatedHost host;
    private final Koordlet koordlet;
    private final QoSManager qos;
    private final Consumer<String> reported;
    private final java.util.concurrent.atomic.AtomicBoolean working = new java.util.concurrent.atomic.AtomicBoolean();

    /** @param reported told the node's name each time its koordlet wrote a NodeMetric report */
    public HostAgent(SimulatedHost host, KoordletConfig config, KubernetesClient client, NodeView view, YarnContainers yarn,
            EventRecorder events, Clock clock, Consumer<String> reported) {
        this.host = host;
        this.reported = reported;
        this.koordlet = new Koordlet(config, client, view, host, host.cgroups().layout(), yarn, clock);
        List<Processor> cpus = new ArrayList<>();
        for (int i = 0; i < (int) host.cores(); i++) {
            cpus.add(new Processor(i, i, 0, 0));
        }
        List<Processor> topology = List.copyOf(cpus);
        this.qos = KoordletAssembly.qos(config, koordlet, host.cgroups(), new ClusterEvictions(client, events, yarn, host.name()),
                () -> topology, clock);
    }

    public void start() throws NodeWatches.StartupException {
        koordlet.start(Koordlet.Loops.DRIVEN);
    }

    /**
     * One step at simulated {@code nowMillis}: the host runs to now under the limits in force, the agent samples it and
     * runs its QoS round (new limits for the next step, evictions). Its periodic work (training, the NodeMetric report
     * when due) talks to the API server: it runs on {@code work}, one at a time per agent, as the real agent runs it on a
     * thread of its own, so a slow write never holds the hosts' clock.
     */
    public void step(long nowMillis, java.util.concurrent.Executor work) {
        host.advance(nowMillis);
        koordlet.collect();
        if (qos != null) {
            qos.runOnce();
        }
        if (working.compareAndSet(false, true)) {
            work.execute(() -> {
                try {
                    Koordlet.LastReport before = koordlet.lastReport();
                    koordlet.work();
                    Koordlet.LastReport after = koordlet.lastReport();
                    if (after != before && after.outcome() == NodeMetricReporter.Outcome.REPORTED) {
                        reported.accept(host.name());
                    }
                } finally {
                    working.set(false);
                }
            });
        }
    }

    public SimulatedHost host() {
        return host;
    }

    public Koordlet koordlet() {
        return koordlet;
    }

    /** Evictions by {@code route/strategy/outcome}; empty without QoS. */
    public java.util.Map<String, Long> evictionCounts() {
        return qos == null ? java.util.Map.of() : qos.evictionCounts();
    }

    @Override
    public void close() {
        koordlet.close();
        if (qos != null) {
            qos.close();
        }
    }
}
