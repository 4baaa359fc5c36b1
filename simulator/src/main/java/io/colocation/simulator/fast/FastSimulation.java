package io.colocation.simulator.fast;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.colocation.api.InvalidInputException;
import io.colocation.api.KoordinatorKeys;
import io.colocation.broker.arbitration.ArbitrationSettings;
import io.colocation.broker.arbitration.GrantPolicy;
import io.colocation.broker.ledger.Ledger;
import io.colocation.broker.reconcile.BrokerReconciler;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.helpers.concurrent.Daemons;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.config.ColocationConfigParser;
import io.colocation.model.config.InvalidConfigException;
import io.colocation.model.config.SloConfigKey;
import io.colocation.model.config.SloConfigParser;
import io.colocation.model.config.SloStrategies;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.slo.NodeMetric;
import io.colocation.simulator.RunProgress;
import io.colocation.simulator.SimulateOptions;
import io.colocation.simulator.Simulation;
import io.colocation.simulator.measure.ApiServerRequests;
import io.colocation.simulator.measure.ClusterSampler;
import io.colocation.simulator.measure.PublishLag;
import io.colocation.simulator.measure.RunReport;
import io.colocation.simulator.measure.SampledCluster;
import io.colocation.simulator.measure.YarnNodeFigures;
import io.colocation.simulator.model.host.BatchTask;
import io.colocation.simulator.model.host.SimulatedHost;
import io.colocation.simulator.model.kube.BatchPodRuntime;
import io.colocation.simulator.model.trace.OnlineLoad;
import io.colocation.simulator.model.trace.PerNodeTrace;
import io.colocation.simulator.model.workload.OnlineWorkload;
import io.colocation.simulator.model.workload.WorkloadModel;
import io.colocation.simulator.real.ClusterObjects;
import io.colocation.simulator.real.ControlPlane;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of {@code colocation simulate --engine fast}: the same hosts, load, workload and report as the real engine
 * ({@link Simulation}), with the control plane as the product's decision code in this JVM on a {@link VirtualClock}:
 * periodic events (every host's koordlet step, the broker's pass, the scheduler's cycle, the NodeManagers' heartbeats,
 * the workload's top-up, the sample) run in a fixed order at their times, the hosts of one step in parallel with their
 * writes carried out after it in host order. The same seed and inputs give the same {@code summary.json} but for its wall
 * times.
 */
public final class FastSimulation {
    private static final Logger LOG = LoggerFactory.getLogger(FastSimulation.class);
    /** Where every run's virtual clock starts: a fixed instant, so samples and reports are the same run to run. */
    static final long EPOCH_MILLIS = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    /** The plugin's graceful preemption waits this long before it kills (the real engine's simulation setting). */
    static final long WAIT_BEFORE_KILL_MILLIS = 60_000;
    /** How long (simulated) the loop may take to publish Batch and apply a YARN grant on every node before the run stops. */
    static final long WARM_UP_LIMIT_MILLIS = 2 * 3600_000L;

    private final SimulateOptions options;
    private final OnlineLoad curves;
    private final ClusterObjects.SloConfig sloConfig;
    private final Path home;
    private final PrintStream out;
    private final Delays delays;
    private final int threads;

    public FastSimulation(SimulateOptions options, OnlineLoad curves, ClusterObjects.SloConfig sloConfig, Path home, PrintStream out) {
        this.options = options;
        this.curves = curves;
        this.sloConfig = sloConfig;
        this.home = home;
        this.out = out;
        this.delays = options.delays() != null ? options.delays() : Delays.defaults(Simulation.STEP_SECONDS);
        this.threads = Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors()));
    }

    /** A periodic event of the engine. */
    private static final class Periodic {
        final String name;
        final long periodMillis;
        final Runnable action;
        long next;
        /** Wall time its runs took. */
        long nanos;

        Periodic(String name, long periodMillis, long first, Runnable action) {
            this.name = name;
            this.periodMillis = periodMillis;
            this.next = first;
            this.action = action;
        }
    }

    public RunReport run() throws InvalidInputException, IOException, InterruptedException {
        long wallStart = System.nanoTime();
        boolean colocation = options.policy() != SimulateOptions.Policy.OFF;
        RunProgress progress = new RunProgress(out, options.quiet());
        progress.say("colocation simulate (fast engine): " + options.nodes() + " nodes of " + Simulation.NODE_CORES + " cores, "
                + curves.traceName() + " (" + curves.traceColumn() + "), " + fmt(options.hours()) + " simulated hours, "
                + (curves instanceof PerNodeTrace perNode ? "online load as measured on the file's " + perNode.fileNodes().size() + " node(s)"
                        : "online mean " + fmt(options.onlineMeanPercent()) + " %") + ", policy " + options.policy().label() + ", seed "
                + options.seed());
        progress.say("slo-controller-config from " + sloConfig.source() + "; delays " + delays.asMap());
        VirtualClock clock = new VirtualClock(EPOCH_MILLIS);
        FastKubernetes kube = new FastKubernetes(colocationConfig(), sloKeys());
        FastYarn[] yarnRef = new FastYarn[1];
        FastWorkload[] workloadRef = new FastWorkload[1];
        FastScheduler[] schedulerRef = new FastScheduler[1];
        PublishLag lag = new PublishLag(clock::millis);
        AtomicLong stepFailures = new AtomicLong();
        List<FastHost> hosts = new ArrayList<>();
        Map<String, FastHost> byName = new HashMap<>();
        FastHost.Cluster cluster = new FastHost.Cluster() {
            @Override
            public void ended(SimulatedHost host, BatchTask task, SimulatedHost.Ending how) {
                if (task.side() == BatchTask.Side.YARN) {
                    yarnRef[0].ended(host, task, how);
                    return;
                }
                Pod pod = kube.pod(host.name(), task.name());
                if (pod == null) {
                    return;
                }
                schedulerRef[0].gone(task.name());
                if (how == SimulatedHost.Ending.COMPLETED) {
                    workloadRef[0].completed(pod);
                } else {
                    workloadRef[0].stopped(pod, task, true);
                }
            }

            @Override
            public boolean evict(String node, String namespace, String name) {
                String key = namespace + "/" + name;
                Pod pod = kube.pod(node, key);
                kube.count("POST pods/eviction", 1);
                if (pod == null || workloadRef[0] == null) {
                    return false;
                }
                BatchTask task = byName.get(node).host().stop(pod.getMetadata().getUid());
                schedulerRef[0].gone(key);
                if (task != null) {
                    workloadRef[0].stopped(pod, task, false);
                }
                return true;
            }

            @Override
            public void release(String node, YarnRelease release) {
                kube.writeRelease(node, release);
            }

            @Override
            public void reported(String node, NodeMetric.Status status) {
                kube.reportMetric(node, status);
                lag.reported(node);
            }
        };

        long start = clock.millis();
        FastYarn yarn = colocation ? new FastYarn(clock, delays.containersPerHeartbeat(), Delays.millis(delays.pluginApply()), WAIT_BEFORE_KILL_MILLIS,
                Delays.millis(delays.yarnReportMinInterval()), Delays.millis(delays.yarnReportRefresh())) : null;
        yarnRef[0] = yarn;
        List<SimulatedHost> simulated = new ArrayList<>();
        for (int i = 0; i < options.nodes(); i++) {
            String name = Simulation.nodeName(i);
            kube.register(name, Simulation.NODE_CORES, Simulation.NODE_MEMORY, 110, colocation);
            FastHost h = new FastHost(i, name, Simulation.NODE_CORES, Simulation.NODE_MEMORY, Simulation.SYSTEM_CORES,
                    Simulation.SYSTEM_MEMORY, curves, start, Simulation.koordletConfig(name), kube, yarn, cluster, clock);
            hosts.add(h);
            byName.put(name, h);
            simulated.add(h.host());
            int j = 0;
            for (OnlineWorkload.Planned p : OnlineWorkload.plan(h.host(), curves, options.seed())) {
                Pod pod = p.pod();
                pod.getMetadata().setUid(String.format("online-%05d-%d", i + 1, j++));
                kube.createBound(pod);
                kube.running(pod, clock.instant().toString());
                h.host().addOnlinePod(new SimulatedHost.OnlinePod(pod.getMetadata().getUid(), FastKubernetes.key(pod), p.share(),
                        p.memoryUse()));
            }
            h.start();
        }
        progress.say(options.nodes() + " nodes, " + options.nodes() * WorkloadModel.ONLINE_PODS_PER_NODE + " online pods; "
                + (colocation ? "broker pass, k8s-scheduler framework and YARN model in this JVM" : "no colocation"));

        BrokerReconciler broker = null;
        FastScheduler scheduler = null;
        FastWorkload workload = null;
        Ledger ledger = new Ledger();
        if (colocation) {
            Map<String, YarnSide> sides = Map.of(yarn.clusterId(), yarn);
            LeaderEpoch.Fence fence = new LeaderEpoch.Fence(1, 0);
            broker = new BrokerReconciler(kube, kube, sides, () -> Optional.of(fence), arbitration(), true, threads, ledger, clock,
                    Duration.ofMillis(Delays.millis(delays.brokerPass())), 500, null);
            FastWorkload w = new FastWorkload(kube, yarn, new WorkloadModel(options.seed()), clock, ControlPlane.SCHEDULER_NAME,
                    Simulation.kubernetesBacklog(options.nodes()), Simulation.yarnBacklog(options.nodes()));
            workload = w;
            workloadRef[0] = w;
            scheduler = new FastScheduler(kube, clock, Delays.millis(delays.unschedulableFlush()), (pod, node) -> {
                byName.get(node).host().start(BatchPodRuntime.task(pod, clock.millis()));
                kube.running(pod, clock.instant().toString());
                w.started(pod);
            });
            schedulerRef[0] = scheduler;
        }

        ExecutorService pool = Executors.newFixedThreadPool(threads, Daemons.named("fast-hosts"));
        try {
            long[] rounds = new long[1];
            Map<String, String> origins = new HashMap<>();
            BrokerReconciler brokerPass = broker;
            FastScheduler schedulerCycle = scheduler;
            List<Periodic> events = new ArrayList<>();
            events.add(new Periodic("hosts", Delays.millis(delays.koordletStep()), start, () -> {
                stepHosts(hosts, clock.millis(), pool, stepFailures);
                rounds[0]++;
            }));
            if (colocation) {
                events.add(new Periodic("yarn-masters", Delays.millis(delays.applicationMasterHeartbeat()), start, yarn::mastersHeartbeat));
                events.add(new Periodic("yarn", Delays.millis(delays.nodeManagerHeartbeat()), start, yarn::heartbeat));
                events.add(new Periodic("broker", Delays.millis(delays.brokerPass()), start, () -> {
                    brokerPass.reconcileAll();
                    publications(kube, hosts, origins, lag);
                }));
                events.add(new Periodic("scheduler", Delays.millis(delays.schedulerCycle()), start, schedulerCycle::cycle));
            }
            long warmEnd = colocation ? warmUp(events, clock, kube, yarn, hosts, start, progress) : start;
            // the day starts now: every host's curve from its beginning, the first sample measures from here
            for (FastHost h : hosts) {
                h.host().startDay(warmEnd);
            }
            long roundsAtDay = rounds[0];
            Map<String, Long> requestsAtDay = kube.requests();
            long zkAtDay = yarn == null ? 0 : yarn.zooKeeperWrites();
            long attemptsAtDay = scheduler == null ? 0 : scheduler.attempts();
            long passesAtDay = broker == null ? 0 : broker.stats().passes.get();
            ClusterSampler sampler = new ClusterSampler(sampled(simulated, kube, yarn, workload, ledger));
            long end = warmEnd + Math.round(options.hours() * 3600_000);
            long dayStartNanos = System.nanoTime();
            FastWorkload topUp = workload;
            List<Periodic> day = new ArrayList<>(events);
            if (topUp != null) {
                day.add(new Periodic("workload", Simulation.CONTROL_SECONDS * 1000L, warmEnd, topUp::topUp));
            }
            day.add(new Periodic("sample", Simulation.SAMPLE_SECONDS * 1000L, warmEnd + Simulation.SAMPLE_SECONDS * 1000L, () -> {
                sampler.sample(clock.millis());
                progress.progress(clock.millis() - warmEnd, end - warmEnd, sampler);
            }));
            for (Periodic p : day) {
                p.next = Math.max(p.next, warmEnd);
            }
            runUntil(day, clock, end);
            progress.done();
            double wall = (System.nanoTime() - wallStart) / 1e9;
            Map<String, Long> evictions = new TreeMap<>();
            hosts.forEach(h -> h.evictionCounts().forEach((k, v) -> evictions.merge(k, v, Long::sum)));
            Map<String, Double> requests = new TreeMap<>();
            kube.requests().forEach((k, v) -> {
                long d = v - requestsAtDay.getOrDefault(k, 0L);
                if (d > 0) {
                    requests.put(k, (double) d);
                }
            });
            Map<String, Long> counters = new LinkedHashMap<>();
            counters.put("hostRounds", rounds[0] - roundsAtDay);
            counters.put("hostRoundsLate", 0L);
            counters.put("hostStepFailures", stepFailures.get());
            counters.put("kubeletStatusWrites", Math.round(requests.getOrDefault("PATCH pods/status", 0.0)));
            counters.put("kubeletWriteFailures", 0L);
            counters.put("yarnHeartbeatFailures", 0L);
            counters.put("brokerPasses", broker == null ? 0 : broker.stats().passes.get() - passesAtDay);
            counters.put("schedulerAttempts", scheduler == null ? 0 : scheduler.attempts() - attemptsAtDay);
            counters.put("zooKeeperWrites", yarn == null ? 0 : yarn.zooKeeperWrites() - zkAtDay);
            counters.put("warmUpSimulatedSeconds", (warmEnd - start) / 1000);
            counters.put("hostThreads", (long) threads);
            for (Periodic p : day) {
                counters.put("wallMillis." + p.name, p.nanos / 1_000_000);
            }
            RunReport.EngineRun run = new RunReport.EngineRun("fast", delays.asMap(), workload, yarn == null ? null : yarn.counters(),
                    evictions, lag.lagsMillis(), 0, List.of(), new ApiServerRequests.Counts(requests), counters, wall,
                    (System.nanoTime() - dayStartNanos) / 1e9);
            return RunReport.of(options, curves, sampler, run, sloConfig);
        } finally {
            pool.shutdownNow();
            hosts.forEach(FastHost::close);
            if (broker != null) {
                broker.close();
            }
        }
    }

    /** Runs the events due up to {@code end} (exclusive), in time order, those due together in the order of the list. */
    private static void runUntil(List<Periodic> events, VirtualClock clock, long end) {
        while (true) {
            long next = Long.MAX_VALUE;
            for (Periodic p : events) {
                next = Math.min(next, p.next);
            }
            if (next > end) {
                clock.set(end);
                return;
            }
            clock.set(next);
            for (Periodic p : events) {
                if (p.next == next) {
                    long t0 = System.nanoTime();
                    p.action.run();
                    p.nanos += System.nanoTime() - t0;
                    p.next += p.periodMillis;
                }
            }
        }
    }

    /**
     * Runs the loop until every node has Batch published, its NodeSLO and YARN's first grant applied, as the real engine
     * waits before its day; returns when that was.
     */
    private static long warmUp(List<Periodic> events, VirtualClock clock, FastKubernetes kube, FastYarn yarn, List<FastHost> hosts,
            long start, RunProgress progress) throws InvalidInputException {
        long t = start;
        while (true) {
            t += 10_000;
            runUntil(events, clock, t);
            int waiting = 0;
            for (FastHost h : hosts) {
                Node n = kube.node(h.host().name());
                boolean published = ClusterSampler.originOf(n) >= 0;
                boolean granted = yarn.figures(h.host().name()).capacityMilli() < Simulation.NODE_CORES * 1000L;
                if (!published || !granted) {
                    waiting++;
                }
            }
            if (waiting == 0) {
                progress.say("every node has Batch published, its NodeSLO and YARN's first grant applied after " + (t - start) / 1000
                        + " simulated seconds: the day starts");
                return t;
            }
            if (t - start > WARM_UP_LIMIT_MILLIS) {
                throw new InvalidInputException("the colocation loop: " + waiting + " of " + hosts.size() + " nodes have no Batch published"
                        + " or no YARN grant applied after " + WARM_UP_LIMIT_MILLIS / 1000 + " simulated seconds (see the log)");
            }
        }
    }

    /** Every host's step, in parallel; then what each asked of the cluster, host by host in order. */
    private static void stepHosts(List<FastHost> hosts, long now, ExecutorService pool, AtomicLong failures) {
        int n = hosts.size();
        int chunks = Math.min(n, 4 * Math.max(1, Runtime.getRuntime().availableProcessors()));
        List<Future<?>> done = new ArrayList<>(chunks);
        for (int c = 0; c < chunks; c++) {
            int from = c * n / chunks;
            int to = (c + 1) * n / chunks;
            done.add(pool.submit(() -> {
                for (int i = from; i < to; i++) {
                    try {
                        hosts.get(i).step(now);
                    } catch (RuntimeException e) {
                        if (failures.incrementAndGet() % 1000 == 1) {
                            LOG.warn("host {}: a step failed: {}", hosts.get(i).host().name(), e.toString(), e);
                        }
                    }
                }
            }));
        }
        for (Future<?> f : done) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while stepping the hosts", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("a host step failed", e.getCause());
            }
        }
        for (FastHost h : hosts) {
            h.flush();
        }
    }

    /** Each change of a node's origin annotation is a publication of its Batch (the publish lag's end). */
    private static void publications(FastKubernetes kube, List<FastHost> hosts, Map<String, String> origins, PublishLag lag) {
        for (FastHost h : hosts) {
            String name = h.host().name();
            Node n = kube.node(name);
            String origin = n.getMetadata().getAnnotations() == null ? null
                    : n.getMetadata().getAnnotations().get(KoordinatorKeys.ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE);
            if (origin != null && !origin.equals(origins.put(name, origin))) {
                lag.published(name);
            }
        }
    }

    /** What the sampler reads of this engine's cluster: the in-memory API server, the YARN model, the broker's ledger. */
    private static SampledCluster sampled(List<SimulatedHost> hosts, FastKubernetes kube, FastYarn yarn, FastWorkload workload,
            Ledger ledger) {
        return SampledCluster.of(hosts, kube::node, kube::podsOn, name -> yarn == null ? YarnNodeFigures.NONE : yarn.figures(name),
                () -> yarn == null ? 0 : yarn.pendingVcoresNow(), () -> workload == null ? 0 : workload.waitingCores(),
                node -> ledger.get(node).map(String::valueOf).orElse("none"));
    }

    /** conf/broker.yml's arbitration, with {@code --policy}; a shrink needs no settling: this engine binds as it decides. */
    private ArbitrationSettings arbitration() throws IOException {
        JsonNode a = new ObjectMapper(new YAMLFactory()).readTree(home.resolve("conf").resolve("broker.yml").toFile()).path("arbitration");
        ArbitrationSettings d = ArbitrationSettings.defaults();
        return new ArbitrationSettings(GrantPolicy.valueOf(options.policy().label().toUpperCase(Locale.ROOT)),
                a.path("kubernetesWeight").asDouble(d.kubernetesWeight()), a.path("yarnWeight").asDouble(d.yarnWeight()),
                a.path("minimumShare").asDouble(d.minimumShare()),
                Duration.ofSeconds(a.path("takeBackAfterSeconds").asLong(d.takeBackAfter().toSeconds())),
                a.path("takeBackCpu").asBoolean(d.takeBackCpu()), Duration.ZERO);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private ColocationConfig colocationConfig() throws InvalidInputException {
        try {
            return ColocationConfigParser.parse(sloConfig.colocation(), sloConfig.source() + ", key " + KoordinatorKeys.COLOCATION_CONFIG_KEY);
        } catch (InvalidConfigException e) {
            throw new InvalidInputException(e.getMessage());
        }
    }

    private Map<SloConfigKey, SloStrategies> sloKeys() throws InvalidInputException {
        Map<SloConfigKey, SloStrategies> keys = new EnumMap<>(SloConfigKey.class);
        for (SloConfigKey key : SloConfigKey.values()) {
            try {
                keys.put(key, SloConfigParser.parse(key, sloConfig.data().get(key.key()), sloConfig.source() + ", key " + key.key()));
            } catch (InvalidConfigException e) {
                throw new InvalidInputException(e.getMessage());
            }
        }
        return keys;
    }
}
