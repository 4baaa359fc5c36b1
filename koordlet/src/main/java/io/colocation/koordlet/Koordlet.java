package io.colocation.koordlet;

import io.colocation.helpers.concurrent.Daemons;
import io.colocation.helpers.lifecycle.Lifecycle;
import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.koordlet.cache.MetricCache;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.PodTargets;
import io.colocation.koordlet.collect.Usage;
import io.colocation.koordlet.collect.UsageSource;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.koordlet.kube.CollectPolicy;
import io.colocation.koordlet.kube.NodeSpecs;
import io.colocation.koordlet.kube.NodeView;
import io.colocation.koordlet.kube.NodeWatches;
import io.colocation.koordlet.predict.PeakPredictServer;
import io.colocation.koordlet.predict.PredictorPod;
import io.colocation.koordlet.predict.PredictorPods;
import io.colocation.koordlet.predict.ProdReclaimablePredictor;
import io.colocation.koordlet.qos.agent.AgentState;
import io.colocation.koordlet.report.NodeMetricReporter;
import io.colocation.koordlet.report.NodeMetricSink;
import io.colocation.koordlet.report.NodeMetricStatusBuilder;
import io.colocation.koordlet.report.ReportInputs;
import io.colocation.koordlet.yarn.YarnContainers;
import io.colocation.kube.client.ApiServerProbe;
import io.colocation.model.Resources;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent, part 1: measures the host every collect interval, predicts prod peaks, reports NodeMetric
 * status every {@code reportIntervalSeconds} of the NodeMetric spec. Lifecycle LATENT → STARTED → CLOSED.
 * On a host ({@link Loops#OWN_THREADS}) three threads: one only collects (so a slow API server never delays a sample),
 * one asks the copilot (so a slow or hostile copilot never delays a sample or a report: its answers are bounded in time
 * and size, and a list older than {@code CopilotListing.maxAge()} counts as unknown), and one does the rest that talks
 * to the outside (report, prediction, checkpoints). A simulator hosting many agents drives {@link #collect()} and
 * {@link #work()} itself ({@link Loops#DRIVEN}) on its simulated clock.
 */
public final class Koordlet implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Koordlet.class);

    /** The last report: when, how it went, the interval in force. */
    public record LastReport(Instant time, NodeMetricReporter.Outcome outcome, Duration interval, NodeMetric.Status status) {
    }

    private final KoordletConfig config;
    private final KubernetesClient client;
    private final UsageSource source;
    private final CgroupLayout layout;
    private final Clock clock;
    private final MetricCache cache;
    private final NodeView watches;
    private final PeakPredictServer predictor;
    private final NodeMetricSink reporter;
    private final DistinctWarnings inputWarnings = new DistinctWarnings(LOG);
    private final NodeSpecs specs;
    private final PodTargets podTargets = new PodTargets();
    private final PredictorPods predictorPods = new PredictorPods();
    /** The host's YARN containers; null when YARN is not measured. */
    private final YarnContainers listing;
    private final Map<String, Long> reportCounts = new ConcurrentHashMap<>();
    private final AtomicLong collectNanos = new AtomicLong();
    private final Duration trainingInterval;
    private final Duration coldStart;

    private final Lifecycle lifecycle = new Lifecycle("koordlet");
    private volatile LastReport lastReport;
    private volatile Optional<ProdReclaimablePredictor.Result> prediction = Optional.empty();
    private volatile long lastCollectMillis;
    /** When the work loop last came round (agent clock, ms). */
    private volatile long workBeatMillis;
    /** A work loop silent this long is stuck (it comes round every second). */
    public static final Duration WORK_STALL = Duration.ofSeconds(60);
    private ApiServerProbe apiProbe;
    private volatile Map<String, Map<String, Usage>> containerUsage = Map.of();
    private long collectRounds;
    /** Containers are measured in every this-many-th sample; 0: never. */
    private final int containerEvery;
    private ScheduledExecutorService collectThread;
    private ScheduledExecutorService workThread;
    private ScheduledExecutorService copilotThread;
    private Instant lastTraining = Instant.EPOCH;
    private Instant lastHousekeeping = Instant.EPOCH;

    /** Who runs the agent's loops. */
    public enum Loops {
        /** the agent's own threads, on the configured intervals */
        OWN_THREADS,
        /** the caller, through {@link #collect()} and {@link #work()} (a simulator of many hosts) */
        DRIVEN
    }

    /** The metric cache as the agent keeps it: node and system for the retention, pods for the training window. */
    public static MetricCache metricCache(KoordletConfig config) {
        int interval = config.collect.intervalSeconds;
        Duration training = KoordletConfig.duration(config.prediction.trainingInterval, "prediction.trainingInterval");
        int itemWindow = (int) Math.min(config.collect.retentionSeconds, Math.max(600, training.getSeconds() + interval));
        return new MetricCache(interval, config.collect.retentionSeconds, itemWindow);
    }

    /**
     * @param view the node's pods, Node, NodeMetric and NodeSLO ({@link NodeWatches} on a host)
     * @param yarn the host's YARN containers; null when YARN is not measured
     */
    public Koordlet(KoordletConfig config, KubernetesClient client, NodeView view, UsageSource source, CgroupLayout layout,
            YarnContainers yarn, Clock clock) {
        this(config, client, new NodeMetricReporter(client, config.nodeName), view, source, layout, yarn, clock);
    }

    /**
     * An agent whose reports go to {@code sink}; {@code client} may be null for one whose loops are {@link Loops#DRIVEN}
     * (it is only the API server probe of the agent's own loops).
     */
    public Koordlet(KoordletConfig config, KubernetesClient client, NodeMetricSink sink, NodeView view, UsageSource source,
            CgroupLayout layout, YarnContainers yarn, Clock clock) {
        this.config = config;
        this.client = client;
        this.source = source;
        this.layout = layout;
        this.clock = clock;
        int interval = config.collect.intervalSeconds;
        this.containerEvery = config.collect.containerIntervalSeconds / interval;
        this.trainingInterval = KoordletConfig.duration(config.prediction.trainingInterval, "prediction.trainingInterval");
        this.coldStart = KoordletConfig.duration(config.prediction.coldStartDuration, "prediction.coldStartDuration");
        this.cache = metricCache(config);
        this.watches = view;
        this.predictor = PeakPredictServer.of(config.prediction);
        this.reporter = sink;
        this.specs = new NodeSpecs(watches, config.nodeName, layout, yarn == null ? null : config.yarn.hostApplicationName,
                inputWarnings);
        this.listing = yarn;
    }

    /** Starts watching and the agent's own loops. */
    public synchronized void start() throws NodeWatches.StartupException {
        start(Loops.OWN_THREADS);
    }

    public synchronized void start(Loops loops) throws NodeWatches.StartupException {
        lifecycle.start(() -> open(loops));
    }

    private void open(Loops loops) throws NodeWatches.StartupException {
        LOG.info("koordlet for node {}: {}; YARN from {}", config.nodeName, source.describe(),
                listing == null ? "nowhere (yarn.copilotUrl is empty)" : listing.describe());
        watches.start(Duration.ofSeconds(config.kubernetes.startupTimeoutSeconds));
        workBeatMillis = clock.millis();
        Set<String> uids = new HashSet<>();
        watches.pods().forEach(p -> uids.add(p.getMetadata().getUid()));
        predictor.restore(uids);
        if (loops == Loops.DRIVEN) {
            return;
        }
        apiProbe = new ApiServerProbe(client, Duration.ofSeconds(5), clock).start();
        collectThread = Executors.newSingleThreadScheduledExecutor(Daemons.named("koordlet-collect"));
        workThread = Executors.newSingleThreadScheduledExecutor(Daemons.named("koordlet-work"));
        if (listing != null) {
            copilotThread = Executors.newSingleThreadScheduledExecutor(Daemons.named("koordlet-copilot"));
            copilotThread.scheduleWithFixedDelay(listing::refresh, 0, config.yarn.refreshSeconds, TimeUnit.SECONDS);
        }
        collectThread.scheduleAtFixedRate(this::collect, 0, config.collect.intervalSeconds, TimeUnit.SECONDS);
        workThread.scheduleWithFixedDelay(this::work, 1, 1, TimeUnit.SECONDS);
    }

    /** One sample: targets from the watches, the copilot's list and the NodeSLO; then into the cache. */
    public void collect() {
        try {
            long start = System.nanoTime();
            List<CollectTargets.PodTarget> podTargets = this.podTargets.of(watches.pods());
            specs.refresh();
            // the copilot's last list while recent enough; unknown (empty) without a copilot or a recent answer
            Optional<List<CollectTargets.YarnTarget>> yarn = listing == null ? Optional.empty() : listing.current();
            List<CollectTargets.HostAppTarget> apps = specs.hostApps().stream()
                    .map(a -> new CollectTargets.HostAppTarget(a.name(), a.cgroupDir())).toList();
            boolean containers = containerEvery > 0 && collectRounds++ % containerEvery == 0;
            CollectTargets targets = new CollectTargets(podTargets, containers, apps, yarn.isPresent(), yarn.orElse(List.of()),
                    specs.policy().memoryPolicy());
            HostSample sample = source.collect(targets, clock.millis());
            cache.append(sample);
            if (containers) {
                containerUsage = sample.containers();
            }
            lastCollectMillis = sample.timeMillis();
            collectNanos.set(System.nanoTime() - start);
        } catch (RuntimeException e) {
            // A bug must not stop the loop: the next sample is tried in one interval.
            LOG.error("koordlet: collecting failed; trying again next interval", e);
        }
    }

    /** Training, GC and checkpoints, and the report, each when due. */
    public void work() {
        workBeatMillis = clock.millis();
        try {
            Instant now = clock.instant();
            if (Duration.between(lastTraining, now).compareTo(trainingInterval) >= 0 && lastCollectMillis > 0) {
                lastTraining = now;
                List<PredictorPod> pods = predictorPods.of(watches.pods(), inputWarnings::warn);
                predictor.train(cache, pods, now);
                prediction = predict(pods, now);
            }
            if (Duration.between(lastHousekeeping, now).toSeconds() >= 60) {
                lastHousekeeping = now;
                predictor.collectGarbage(now);
                predictor.checkpoint(now, false);
            }
            CollectPolicy p = specs.policy();
            LastReport last = lastReport;
            if (lastCollectMillis > 0 && (last == null || Duration.between(last.time(), now).compareTo(p.reportInterval()) >= 0)) {
                report(now, p);
            }
        } catch (RuntimeException e) {
            LOG.error("koordlet: periodic work failed; trying again in a second", e);
        }
    }

    private Optional<ProdReclaimablePredictor.Result> predict(List<PredictorPod> pods, Instant now) {
        Resources allocatable = watches.node().map(n -> NodeInputs.allocatable(n, inputWarnings::warn)).orElse(null);
        if (allocatable == null) {
            return Optional.empty();
        }
        return ProdReclaimablePredictor.predict(pods, predictor::prediction, allocatable, now, coldStart,
                config.prediction.safetyMarginPercent);
    }

    private void report(Instant now, CollectPolicy p) {
        List<ReportInputs.HostApp> apps = specs.hostApps().stream()
                .map(a -> new ReportInputs.HostApp(a.name(), a.priority(), a.qos())).toList();
        ReportInputs in = new ReportInputs(now, p.aggregateWindow(), p.aggregateDurations(), NodeInputs.reportPods(watches.pods()),
                apps, config.yarn.hostApplicationName, prediction);
        NodeMetric.Status status = NodeMetricStatusBuilder.build(cache, in);
        NodeMetricReporter.Outcome outcome = reporter.report(watches.nodeMetricEntry().map(e -> e.resourceVersion()), status);
        reportCounts.merge(outcome.name().toLowerCase(java.util.Locale.ROOT), 1L, Long::sum);
        lastReport = new LastReport(now, outcome, p.reportInterval(), status);
    }

    @Override
    public synchronized void close() {
        Lifecycle.State was = lifecycle.close();
        if (was == Lifecycle.State.CLOSED) {
            return;
        }
        boolean started = was == Lifecycle.State.STARTED;
        if (collectThread != null) {
            collectThread.shutdownNow();
            workThread.shutdownNow();
            if (copilotThread != null) {
                copilotThread.shutdownNow();
            }
            try {
                workThread.awaitTermination(5, TimeUnit.SECONDS);
                collectThread.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (started) {
            int saved = predictor.checkpoint(clock.instant(), true);
            LOG.info("koordlet: {} prediction model(s) checkpointed at shutdown", saved);
        }
        watches.close();
        if (apiProbe != null) {
            apiProbe.close();
        }
        source.close();
    }

    // What the status endpoint and the metrics read.

    /** What the QoS strategies read from this agent (watches, last sample, YARN containers). */
    public AgentState agentState() {
        return new AgentState() {
            @Override
            public Optional<io.fabric8.kubernetes.api.model.Node> node() {
                return watches.node();
            }

            @Override
            public List<Pod> pods() {
                return watches.pods();
            }

            @Override
            public Optional<NodeSLO> nodeSlo() {
                return watches.nodeSlo();
            }

            @Override
            public HostSample lastSample() {
                return cache.last();
            }

            @Override
            public Optional<List<CollectTargets.YarnTarget>> yarnContainers() {
                return listing == null ? Optional.empty() : listing.current();
            }

            @Override
            public boolean ownedByNodeManager(int pid) {
                return listing != null && listing.ownedByNodeManager(pid);
            }

            @Override
            public String yarnHostApplication() {
                return config.yarn.hostApplicationName;
            }
        };
    }

    public Lifecycle.State state() {
        return lifecycle.state();
    }

    public String nodeName() {
        return config.nodeName;
    }

    public String sourceDescription() {
        return source.describe();
    }

    public MetricCache cache() {
        return cache;
    }

    public LastReport lastReport() {
        return lastReport;
    }

    public Map<String, Long> reportCounts() {
        return Map.copyOf(reportCounts);
    }

    public Optional<ProdReclaimablePredictor.Result> prediction() {
        return prediction;
    }

    public int predictionModels() {
        return predictor.modelCount();
    }

    public Map<String, String> podNames() {
        return podTargets.names();
    }

    /** Pod uid → container name → usage, from the last sample that measured containers. */
    public Map<String, Map<String, Usage>> containerUsage() {
        return containerUsage;
    }

    public long lastCollectDurationNanos() {
        return collectNanos.get();
    }

    /** Time since the last sample on the agent's own clock; negative before the first. */
    public long sampleAgeMillis() {
        long last = lastCollectMillis;
        return last == 0 ? -1 : clock.millis() - last;
    }

    /** Things the copilot said that were refused, by reason; empty without a copilot. */
    public Map<String, Long> copilotRefusals() {
        return listing == null ? Map.of() : listing.refusals();
    }

    /** Time since the work loop last came round; 0 before the start. */
    public long workAgeMillis() {
        return workBeatMillis == 0 ? 0 : clock.millis() - workBeatMillis;
    }

    /** Null while the API server answers; else since when it has not. */
    public String apiServerProblem() {
        return apiProbe == null ? null : apiProbe.problem(Duration.ofSeconds(20));
    }

    public boolean watching() {
        return watches.watching();
    }

    /** Everything the agent cannot read now: kernel files, copilot, pods, NodeMetric spec, NodeSLO. */
    public Map<String, String> problems() {
        Map<String, String> all = new java.util.TreeMap<>(source.problems());
        all.putAll(inputWarnings.current());
        all.putAll(reporter.problems());
        all.putAll(watches.unreadable());
        if (listing != null) {
            all.putAll(listing.problems());
        }
        return all;
    }

    public Duration collectInterval() {
        return Duration.ofSeconds(config.collect.intervalSeconds);
    }
}
