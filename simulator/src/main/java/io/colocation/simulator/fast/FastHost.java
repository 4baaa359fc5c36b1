package io.colocation.simulator.fast;

import io.colocation.koordlet.Koordlet;
import io.colocation.koordlet.KoordletAssembly;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.koordlet.kube.NodeWatches;
import io.colocation.koordlet.qos.Processor;
import io.colocation.koordlet.qos.Victim;
import io.colocation.koordlet.qos.agent.EvictionExecutor;
import io.colocation.koordlet.qos.agent.QoSManager;
import io.colocation.koordlet.report.NodeMetricReporter;
import io.colocation.koordlet.report.NodeMetricSink;
import io.colocation.koordlet.yarn.YarnContainers;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.slo.NodeMetric;
import io.colocation.simulator.model.host.SimulatedCgroups;
import io.colocation.simulator.model.host.SimulatedHost;
import io.colocation.simulator.model.trace.OnlineLoad;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One host of the fast engine with its koordlet: the agent's own code (collector reading the host model, peak predictor,
 * NodeMetric report builder, QoS strategies writing the host's cgroups), its loops driven by the engine. The hosts of one
 * step run in parallel; what a step would send to the cluster (a report, an eviction, a YarnRelease, a container kill, a
 * task that ended) waits in the host's outbox and is carried out after the step, host by host in order, so a run is the
 * same whatever the threads did.
 */
final class FastHost {
    /** What the cluster does with a host's requests; called after the step, in host order. */
    interface Cluster {
        void ended(SimulatedHost host, io.colocation.simulator.model.host.BatchTask task, SimulatedHost.Ending how);

        /** Evicts a batch pod through the Eviction API; false when it is not on the node. */
        boolean evict(String node, String namespace, String name);

        /** Writes the node's YarnRelease (the koordlet's graceful route). */
        void release(String node, YarnRelease release);

        void reported(String node, NodeMetric.Status status);
    }

    private final SimulatedHost host;
    private final Koordlet koordlet;
    private final QoSManager qos;
    private final List<Runnable> outbox = new ArrayList<>();

    FastHost(int index, String name, int cores, long memory, double systemCores, long systemMemory, OnlineLoad curves, long startMillis,
            KoordletConfig config, FastKubernetes kube, FastYarn yarn, Cluster cluster, Clock clock) {
        this.host = new SimulatedHost(index, name, cores, memory, systemCores, systemMemory, curves, startMillis, new SimulatedCgroups(clock),
                (h, task, how) -> outbox.add(() -> cluster.ended(h, task, how)));
        if (yarn != null) {
            yarn.register(host);
        }
        YarnContainers containers = yarn == null ? null : yarn.containers(name, outbox);
        NodeMetricSink sink = new NodeMetricSink() {
            @Override
            public NodeMetricReporter.Outcome report(Optional<String> resourceVersion, NodeMetric.Status status) {
                if (resourceVersion.isEmpty()) {
                    return NodeMetricReporter.Outcome.NO_NODEMETRIC; // no broker renders one (colocation off)
                }
                outbox.add(() -> cluster.reported(name, status));
                return NodeMetricReporter.Outcome.REPORTED;
            }

            @Override
            public Map<String, String> problems() {
                return Map.of();
            }
        };
        this.koordlet = new Koordlet(config, null, sink, kube.view(name), host, host.cgroups().layout(), containers, clock);
        List<Processor> cpus = new ArrayList<>();
        for (int i = 0; i < cores; i++) {
            cpus.add(new Processor(i, i, 0, 0));
        }
        List<Processor> topology = List.copyOf(cpus);
        EvictionExecutor evictions = new EvictionExecutor() {
            @Override
            public Optional<String> evict(Victim victim, String area, String strategy, String reason) {
                if (victim.kind() == Victim.Kind.YarnContainer) {
                    return containers == null ? Optional.of("no YARN on this host") : containers.kill(victim.name(), strategy + ": " + reason);
                }
                outbox.add(() -> cluster.evict(name, victim.namespace(), victim.name()));
                return Optional.empty();
            }

            @Override
            public Optional<String> releaseYarn(YarnRelease release) {
                outbox.add(() -> cluster.release(name, release));
                return Optional.empty();
            }
        };
        this.qos = KoordletAssembly.qos(config, koordlet, host.cgroups(), evictions, () -> topology, clock);
    }

    void start() {
        try {
            koordlet.start(Koordlet.Loops.DRIVEN);
        } catch (NodeWatches.StartupException e) {
            throw new IllegalStateException("the in-memory watches do not fail to start", e);
        }
    }

    /** One step at {@code nowMillis}: the host runs to now, the agent samples it, runs its QoS round and its periodic work. */
    void step(long nowMillis) {
        host.advance(nowMillis);
        koordlet.collect();
        if (qos != null) {
            qos.runOnce();
        }
        koordlet.work();
    }

    /** Carries out what the last step asked of the cluster, in the order it asked. */
    void flush() {
        for (int i = 0; i < outbox.size(); i++) {
            outbox.get(i).run();
        }
        outbox.clear();
    }

    SimulatedHost host() {
        return host;
    }

    Map<String, Long> evictionCounts() {
        return qos == null ? Map.of() : qos.evictionCounts();
    }

    void close() {
        koordlet.close();
        if (qos != null) {
            qos.close();
        }
    }
}
