package io.colocation.simulator;

import io.colocation.harness.SimulatedKubelets;
import io.colocation.helpers.concurrent.Daemons;
import io.colocation.helpers.time.ScaledClock;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.kube.client.EventRecorder;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.localclusters.process.PartFailedException;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.simulator.measure.ApiServerRequests;
import io.colocation.simulator.measure.ClusterSampler;
import io.colocation.simulator.measure.ProcessMonitor;
import io.colocation.simulator.measure.PublishLag;
import io.colocation.simulator.measure.RunReport;
import io.colocation.simulator.measure.SampledCluster;
import io.colocation.simulator.measure.SchedulerAttemptLatency;
import io.colocation.simulator.measure.YarnNodeFigures;
import io.colocation.simulator.model.host.HostStepper;
import io.colocation.simulator.model.host.SimulatedCgroups;
import io.colocation.simulator.model.host.SimulatedHost;
import io.colocation.simulator.model.kube.BatchPodRuntime;
import io.colocation.simulator.model.trace.OnlineLoad;
import io.colocation.simulator.model.trace.PerNodeTrace;
import io.colocation.simulator.model.workload.BatchWorkload;
import io.colocation.simulator.model.workload.OnlineWorkload;
import io.colocation.simulator.model.workload.WorkloadModel;
import io.colocation.simulator.real.ClusterObjects;
import io.colocation.simulator.real.ControlPlane;
import io.colocation.simulator.real.HostAgent;
import io.colocation.simulator.real.SharedWatches;
import io.colocation.simulator.real.yarn.SimulatedYarn;
import io.colocation.simulator.real.yarn.SimulatedYarnConfiguration;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.yarn.api.records.Resource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of {@code colocation simulate}: the real control plane (etcd + kube-apiserver, ZooKeeper, the broker and the
 * k8s-scheduler as their own processes, the ResourceManager with its real scheduler and the plugin) over simulated
 * hosts each driven by the koordlet's own code, through a day of a trace compressed {@code speed} times; then the report.
 * Every part is stopped in reverse order, whatever happens; the work directory (logs) is removed unless a part failed.
 */
public final class Simulation implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Simulation.class);
    public static final int NODE_CORES = 32;
    public static final long NODE_MEMORY = 128L << 30;
    public static final double SYSTEM_CORES = 0.5;
    public static final long SYSTEM_MEMORY = 2L << 30;
    /** Simulated seconds between two steps of every host (its koordlet's collect and QoS round). */
    public static final int STEP_SECONDS = 10;
    /** Simulated seconds between two samples of the cluster. */
    public static final int SAMPLE_SECONDS = 60;
    /** Simulated seconds between two top-ups of the batch backlog. */
    public static final int CONTROL_SECONDS = 30;
    static final Duration NODE_HEARTBEAT = Duration.ofMillis(1000);
    static final Duration AM_HEARTBEAT = Duration.ofMillis(1000);
    /** How long the loop may take to run on every node before the day starts (wall time). */
    public static final Duration WARM_UP_LIMIT = Duration.ofMinutes(10);

    private final SimulateOptions options;
    private final OnlineLoad curves;
    private final ClusterObjects.SloConfig sloConfig;
    private final Path home;
    private final Path work;
    private final PrintStream out;
    private final Deque<AutoCloseable> parts = new ArrayDeque<>();
    private boolean keepWork;

    /**
     * @param curves    the online load of {@code options}' trace (read once by the command, the same for every run of a sweep)
     * @param sloConfig the slo-controller-config the run applies (the shipped one, the user's, or a sweep's value)
     */
    public Simulation(SimulateOptions options, OnlineLoad curves, ClusterObjects.SloConfig sloConfig, Path home, Path work, PrintStream out) {
        this.options = options;
        this.curves = curves;
        this.sloConfig = sloConfig;
        this.home = home;
        this.work = work;
        this.out = out;
    }

    /** The name of the {@code index}-th simulated node (from 0): {@code sim-node-00001} onwards. */
    public static String nodeName(int index) {
        return String.format("sim-node-%05d", index + 1);
    }

    /** The backlog of Kubernetes batch pods waiting to be scheduled that the workload keeps. */
    public static int kubernetesBacklog(int nodes) {
        return Math.max(20, nodes / 4);
    }

    /** The backlog of YARN tasks waiting for a container that the workload keeps. */
    public static int yarnBacklog(int nodes) {
        return Math.max(40, nodes / 2);
    }

    public RunReport run() throws Exception {
        long wallStart = System.nanoTime();
        boolean colocation = options.policy() != SimulateOptions.Policy.OFF;
        double seconds = options.hours() * 3600;
        ScaledClock clock = new ScaledClock(System.currentTimeMillis(), options.speed(), java.time.Clock.systemUTC());
        // The plugin inside this JVM's ResourceManager reads the scaled clock from these, as the other parts do.
        System.setProperty(ScaledClock.SPEED_PROPERTY, Double.toString(clock.speed()));
        System.setProperty(ScaledClock.ORIGIN_PROPERTY, Long.toString(clock.originMillis()));
        RunProgress progress = new RunProgress(out, options.quiet());
        progress.say("colocation simulate: " + options.nodes() + " nodes of " + NODE_CORES + " cores, " + curves.traceName() + " ("
                + curves.traceColumn() + "), " + fmt(options.hours()) + " simulated hours at " + fmt(options.speed()) + "x, "
                + (curves instanceof PerNodeTrace perNode ? "online load as measured on the file's " + perNode.fileNodes().size()
                        + " node(s), simulated node i running the file's node i mod " + perNode.fileNodes().size()
                        : "online mean " + fmt(options.onlineMeanPercent()) + " %") + ", policy " + options.policy().label() + ", seed "
                + options.seed());
        progress.say("slo-controller-config from " + sloConfig.source() + " (" + new java.util.TreeMap<>(ClusterObjects.TIME_SCALED)
                + " simulated seconds: the clock is scaled)");
        try {
            LocalZooKeeper zk = new LocalZooKeeper();
            parts.push(zk);
            KubeApiServer api;
            try {
                api = KubeApiServer.start(work.resolve("kube"));
            } catch (Exception e) {
                throw new PartFailedException("etcd + kube-apiserver", String.valueOf(e.getMessage()), work.resolve("kube"));
            }
            parts.push(api);
            Config config = api.clientConfig();
            config.setMaxConcurrentRequests(256);
            config.setMaxConcurrentRequestsPerHost(256);
            config.setRequestTimeout(60_000);
            KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
            parts.push(client);
            progress.say("etcd + kube-apiserver at " + api.url() + "; ZooKeeper at " + zk.connectString());
            ClusterObjects.apply(client, home.resolve("conf"), List.of(OnlineWorkload.NAMESPACE, BatchWorkload.NAMESPACE, "koordinator-system"),
                    sloConfig);

            Map<String, SimulatedHost> hosts = new LinkedHashMap<>();
            List<HostAgent> agents = new ArrayList<>();
            SimulatedYarn[] yarnRef = new SimulatedYarn[1];
            BatchPodRuntime[] podsRef = new BatchPodRuntime[1];
            long dayStart = clock.millis();
            SimulatedHost.Listener ended = (host, task, how) -> {
                if (task.side() == io.colocation.simulator.model.host.BatchTask.Side.KUBERNETES) {
                    podsRef[0].ended(task, how);
                } else if (yarnRef[0] != null) {
                    yarnRef[0].ended(host, task, how);
                }
            };
            for (int i = 0; i < options.nodes(); i++) {
                String name = nodeName(i);
                hosts.put(name, new SimulatedHost(i, name, NODE_CORES, NODE_MEMORY, SYSTEM_CORES, SYSTEM_MEMORY, curves, dayStart,
                        new SimulatedCgroups(clock), ended));
            }
            BatchWorkload[] workloadRef = new BatchWorkload[1];
            BatchPodRuntime pods = new BatchPodRuntime(hosts, clock, (pod, task, oom) -> {
                if (workloadRef[0] != null) {
                    workloadRef[0].stopped(pod, task, oom);
                }
            });
            SimulatedKubelets kubelets = new SimulatedKubelets(client, hosts.keySet(), "colocation simulate", clock, pods);
            pods.runFor(kubelets);
            podsRef[0] = pods;
            parts.push(kubelets);
            kubelets.register(NODE_CORES, NODE_MEMORY, 110);
            SharedWatches watches = new SharedWatches(client);
            watches.onPod(kubelets::changed);
            watches.start(Duration.ofMinutes(2));
            parts.push(watches);
            ExecutorService pool = Executors.newFixedThreadPool(8, Daemons.named("simulate-setup"));
            try {
                OnlineWorkload.create(client, List.copyOf(hosts.values()), curves, options.seed(), pool);
            } finally {
                pool.shutdownNow();
            }
            progress.say(options.nodes() + " nodes registered, " + options.nodes() * WorkloadModel.ONLINE_PODS_PER_NODE
                    + " online pods (koord-prod, requests " + WorkloadModel.ONLINE_REQUEST_FACTOR + "x their mean use)");

            SimulatedYarn yarn = null;
            if (colocation) {
                yarn = SimulatedYarn.start(SimulatedYarnConfiguration.of(home.resolve("conf"), zk.connectString(), "/colocation", options.speed()),
                        hosts.values(), Resource.newInstance(NODE_MEMORY >> 20, NODE_CORES), Resource.newInstance(2048, 1), clock,
                        NODE_HEARTBEAT, AM_HEARTBEAT);
                yarnRef[0] = yarn;
                parts.push(yarn);
                progress.say("YARN: a ResourceManager (CapacityScheduler + the colocation plugin) and " + options.nodes()
                        + " simulated NodeManagers");
            }

            EventRecorder events = new EventRecorder(client, "koordlet");
            parts.push(events);
            PublishLag lag = new PublishLag();
            for (SimulatedHost h : hosts.values()) {
                HostAgent agent = new HostAgent(h, koordletConfig(h.name()), client, watches.view(h.name()),
                        yarn == null ? null : yarn.containers(h.name()), events, clock, lag::reported);
                agent.start();
                agents.add(agent);
            }
            parts.push(() -> agents.forEach(HostAgent::close));
            parts.push(lag.watchPublications(client));
            HostStepper stepper = new HostStepper(agents, clock, STEP_SECONDS * 1000L, 2);
            ControlPlane control = new ControlPlane();
            parts.push(control);
            if (colocation) {
                control.startBroker(home, work, api.kubeconfig(), zk.connectString(), options.policy().label(), clock, options.nodes());
                progress.say("broker (conf/broker.yml, policy " + options.policy().label() + ") at " + control.brokerUrl());
                control.startScheduler(home, work, api.kubeconfig(), clock, options.nodes());
                progress.say("k8s-scheduler (" + ControlPlane.SCHEDULER_NAME + ", LoadAwareScheduling as Koordinator ships it)");
            }
            stepper.start();
            parts.push(stepper);

            ProcessMonitor monitor = new ProcessMonitor(Path.of("/proc"));
            List<Long> apiPids = api.processIds();
            monitor.watch("etcd", apiPids.get(0));
            monitor.watch("kube-apiserver", apiPids.get(apiPids.size() - 1));
            control.pids().forEach(monitor::watch);
            monitor.watch("simulator (ResourceManager, " + options.nodes() + " hosts)", ProcessHandle.current().pid());

            WorkloadModel model = new WorkloadModel(options.seed());
            BatchWorkload workload = colocation ? new BatchWorkload(client, clock, model, yarn, ControlPlane.SCHEDULER_NAME,
                    kubernetesBacklog(options.nodes()), yarnBacklog(options.nodes())) : null;
            if (workload != null) {
                workloadRef[0] = workload;
                watches.onPod(workload::changed);
                parts.push(workload);
            }
            ClusterSampler sampler = new ClusterSampler(sampled(hosts, watches, yarn, workload, control));
            if (colocation) {
                warmUp(agents, watches, yarn, control, progress);
            }
            // the day starts now: every host's curve from its beginning, the first sample measures from here
            long from = clock.millis();
            agents.forEach(a -> a.host().startDay(from));
            long end = from + Math.round(seconds * 1000);
            monitor.begin();
            ApiServerRequests.Counts requestsAtFrom = ApiServerRequests.read(client);
            long monitorNanos = System.nanoTime();
            long nextSample = from + SAMPLE_SECONDS * 1000L;
            long nextControl = from;
            long nanosAtFrom = System.nanoTime();
            while (true) {
                long now = clock.millis();
                if (now >= nextControl && workload != null) {
                    workload.topUp();
                    nextControl = now + CONTROL_SECONDS * 1000L;
                }
                if (now >= nextSample) {
                    sampler.sample(now);
                    // a sample measures everything since the last one: after a stall the next one comes a full interval on
                    nextSample = Math.max(nextSample + SAMPLE_SECONDS * 1000L, now + SAMPLE_SECONDS * 1000L / 2);
                    progress.progress(now - from, end - from, sampler);
                }
                if (System.nanoTime() - monitorNanos > 5_000_000_000L) {
                    monitor.sample();
                    monitorNanos = System.nanoTime();
                    List<String> dead = control.dead();
                    if (!dead.isEmpty()) {
                        throw new PartFailedException(String.join(", ", dead), "exited during the run", work.resolve("logs"));
                    }
                }
                if (now >= end) {
                    break;
                }
                Thread.sleep(Math.max(1, clock.real(Math.min(1000, end - now))));
            }
            monitor.end();
            ApiServerRequests.Counts requests = ApiServerRequests.read(client).since(requestsAtFrom);
            progress.done();
            double wall = (System.nanoTime() - wallStart) / 1e9;
            Map<String, Long> evictions = new java.util.TreeMap<>();
            agents.forEach(a -> a.evictionCounts().forEach((k, v) -> evictions.merge(k, v, Long::sum)));
            Map<String, Long> counters = new LinkedHashMap<>();
            counters.put("hostRounds", stepper.rounds());
            counters.put("hostRoundsLate", stepper.lateRounds());
            counters.put("hostStepFailures", stepper.failures());
            counters.put("kubeletStatusWrites", kubelets.statusWrites());
            counters.put("kubeletWriteFailures", kubelets.writeFailures());
            counters.put("yarnHeartbeatFailures", yarn == null ? 0 : yarn.heartbeatFailures());
            RunReport.EngineRun run = new RunReport.EngineRun("real", realDelays(), workload, yarn == null ? null : yarn.counters(), evictions,
                    lag.lagsMillis(), SchedulerAttemptLatency.p99Millis(control.get(false, "/metrics")), monitor.figures(), requests, counters,
                    wall, (System.nanoTime() - nanosAtFrom) / 1e9);
            return RunReport.of(options, curves, sampler, run, sloConfig);
        } catch (PartFailedException e) {
            keepWork = true;
            throw e;
        }
    }

    /**
     * Waits until the loop runs on every node: its koordlet reported, the broker published its Batch and wrote its NodeSLO,
     * and YARN applied a first grant (a NodeManager runs on its own totals until then). What a real cluster does once, when colocation is
     * turned on, is not part of the measured day.
     */
    private void warmUp(List<HostAgent> agents, SharedWatches watches, SimulatedYarn yarn, ControlPlane control, RunProgress progress)
            throws Exception {
        long deadline = System.nanoTime() + WARM_UP_LIMIT.toNanos();
        while (true) {
            int waiting = 0;
            for (HostAgent a : agents) {
                String node = a.host().name();
                Node n = watches.node(node).orElse(null);
                boolean published = ClusterSampler.originOf(n) >= 0;
                boolean granted = yarn == null || yarn.figures(node).capacityMilli() < NODE_CORES * 1000L;
                // without its NodeSLO a koordlet neither suppresses nor evicts
                boolean enforced = watches.view(node).nodeSlo().isPresent();
                if (!published || !granted || !enforced) {
                    waiting++;
                }
            }
            if (waiting == 0) {
                progress.say("every node has Batch published, its NodeSLO and YARN's first grant applied: the day starts");
                return;
            }
            if (!control.dead().isEmpty()) {
                throw new PartFailedException(String.join(", ", control.dead()), "exited while starting", work.resolve("logs"));
            }
            if (System.nanoTime() > deadline) {
                throw new PartFailedException("the colocation loop", waiting + " of " + agents.size() + " nodes have no Batch published, no NodeSLO"
                        + " or no YARN grant applied after " + WARM_UP_LIMIT.toSeconds() + " s", work.resolve("logs"));
            }
            Thread.sleep(250);
        }
    }

    /** What the sampler reads of this engine's cluster: the shared watches, the ResourceManager, the broker's REST API. */
    private static SampledCluster sampled(Map<String, SimulatedHost> hosts, SharedWatches watches, SimulatedYarn yarn, BatchWorkload workload,
            ControlPlane control) {
        return SampledCluster.of(List.copyOf(hosts.values()), name -> watches.node(name).orElse(null), watches::podsOn,
                name -> yarn == null ? YarnNodeFigures.NONE : yarn.figures(name), () -> yarn == null ? 0 : yarn.pendingVcores(),
                () -> workload == null ? 0 : workload.waitingCores(), node -> control.get(true, "/api/v1/nodes/" + node));
    }

    /** The real engine's delays are its parts' own: stated as what drives them. */
    private static Map<String, Object> realDelays() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("koordletStepSeconds", STEP_SECONDS);
        d.put("nodeManagerHeartbeatWallMillis", NODE_HEARTBEAT.toMillis());
        d.put("applicationMasterHeartbeatWallMillis", AM_HEARTBEAT.toMillis());
        d.put("brokerSyncIntervalWallMillis", 1000);
        d.put("note", "the real processes' own timing on the scaled clock");
        return d;
    }

    /** A simulated node's koordlet: collecting every step, enforcing CPU suppress and BE evictions, no prediction checkpoints. */
    public static KoordletConfig koordletConfig(String node) {
        KoordletConfig c = new KoordletConfig();
        c.nodeName = node;
        c.collect.intervalSeconds = STEP_SECONDS;
        c.collect.retentionSeconds = 1800;
        c.collect.containerIntervalSeconds = 0;
        c.prediction.checkpointDir = "";
        c.qos.featureGates = "BECPUSuppress=true,BEMemoryEvict=true,BECPUEvict=true";
        return c;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    public Path workDirectory() {
        return work;
    }

    /** Stops every part, newest first; removes the work directory unless a part failed (its logs are kept). */
    @Override
    public void close() {
        while (!parts.isEmpty()) {
            try {
                parts.pop().close();
            } catch (Exception e) {
                LOG.warn("stopping a part: {}", e.toString());
            }
        }
        if (keepWork) {
            out.println("logs kept in " + work.resolve("logs"));
            return;
        }
        try (var walk = Files.walk(work)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            LOG.warn("could not remove {}: {}", work, e.toString());
        }
    }

    /** Keeps the work directory (the parts' logs) when the run is closed. */
    void keepLogs() {
        keepWork = true;
    }
}
