package io.colocation.koordlet.qos.agent;

import io.colocation.helpers.concurrent.Daemons;
import io.colocation.helpers.lifecycle.Lifecycle;
import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.qos.BestEffortState;
import io.colocation.koordlet.qos.EvictionStrategy;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.Processor;
import io.colocation.koordlet.qos.QoSContext;
import io.colocation.koordlet.qos.QoSStrategies;
import io.colocation.koordlet.qos.Victim;
import io.colocation.koordlet.qos.cpusuppress.CpuSuppressDecision;
import io.colocation.koordlet.qos.evict.EvictionDecision;
import io.colocation.koordlet.qos.memory.BeMemoryHigh;
import io.colocation.model.node.NodeAnnotations;
import io.colocation.model.node.YarnRelease;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The QoS loop of the agent on a real host: every second it puts YARN containers YARN left outside any cgroup into
 * the BE tier, builds the node snapshot, runs CPU suppress and writes its decision to the BE cgroup tree through the
 * cgroup writer (with the optional cpu.idle mark), and runs the memory and CPU eviction strategies and carries out
 * their victims: pods through the Eviction API, YARN containers under memory pressure through the copilot, and YARN
 * containers chosen for CPU by the graceful route (one {@link YarnRelease} for the round: the broker shrinks YARN's
 * grant and the ResourceManager preempts). Lifecycle LATENT → STARTED → CLOSED.
 */
public final class QoSManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QoSManager.class);
    private static final long TOPOLOGY_REFRESH_SECONDS = 60;

    /**
     * The last round: when, the strategies' decisions (the eviction strategies' by name), whether the BE cgroup was there
     * to write, the evictions done.
     */
    public record Round(Instant time, CpuSuppressDecision cpuSuppress, BeMemoryHigh.Decision memoryHigh,
            Map<String, EvictionDecision> evictionDecisions, boolean enforced, List<Eviction> evictions) {
        public EvictionDecision memoryEvict() {
            return evictionDecisions.get(QoSStrategies.MEMORY_EVICT.name());
        }

        public EvictionDecision memoryPressureEvict() {
            return evictionDecisions.get(QoSStrategies.MEMORY_PRESSURE_EVICT.name());
        }

        public EvictionDecision cpuEvict() {
            return evictionDecisions.get(QoSStrategies.CPU_EVICT.name());
        }
    }

    /** One eviction carried out (or tried): the victim, its area and strategy, and the outcome (null: done). */
    public record Eviction(Instant time, Victim victim, String area, String strategy, String failure) {
    }

    /** A victim evicted this recently is terminating, not to be evicted again. */
    static final Duration RECENTLY_EVICTED = Duration.ofMinutes(5);
    /**
     * How long the broker holds YARN at a release's limit: long enough for the RM plugin's graceful preemption (its
     * AM notice and wait before kill), short enough that YARN grows back when the node's Batch does.
     */
    static final Duration YARN_RELEASE_HOLD = Duration.ofMinutes(2);

    private final AgentState agent;
    private final CgroupWriter writer;
    private final FeatureGates gates;
    private final QoSOptions options;
    private final CpuTopology cpuTopology;
    private final int collectIntervalSeconds;
    private final Clock clock;
    private final String beDir;
    private final YarnCgroups yarn;
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);
    private final EvictionExecutor evictions;
    private final Map<Victim, Instant> evicted = new HashMap<>();
    private final Map<String, Long> evictionCounts = new ConcurrentHashMap<>();
    private final BeCpuWindow beCpu = new BeCpuWindow();
    private final SnapshotAssembler snapshots = new SnapshotAssembler();
    /** The last eviction per area, for its cool-down. */
    private final Map<EvictionStrategy.Area, Instant> lastEviction = new EnumMap<>(EvictionStrategy.Area.class);
    /** Since when the host's memory pressure stall has been at or above the threshold; null when it is not. */
    private Instant pressureHighSince;
    private ScheduledExecutorService thread;
    private List<Processor> topology = List.of();
    private Instant topologyRead = Instant.EPOCH;
    private volatile Round last;
    /** The BE cpuset file's text as last read, and its CPUs (null: not a CPU list). */
    private String cpusetText;
    private List<Integer> cpusetCpus;
    private final Lifecycle lifecycle = new Lifecycle("QoS manager");

    /** The host's logical CPUs: read from {@code /sys} on a real host, given by a simulated one. */
    @FunctionalInterface
    public interface CpuTopology {
        List<Processor> read() throws IOException;
    }

    /**
     * @param evictions   carries out the evictions the strategies decide
     * @param cpuTopology the host's CPUs, read again every minute
     */
    public QoSManager(AgentState agent, CgroupWriter writer, FeatureGates gates, QoSOptions options, EvictionExecutor evictions,
            CpuTopology cpuTopology, int collectIntervalSeconds, Clock clock) {
        this.evictions = evictions;
        for (EvictionStrategy.Area area : EvictionStrategy.Area.values()) {
            // Koordinator's CPU evictor cools down from its start
            lastEviction.put(area, area.coolsFromStart() ? clock.instant() : Instant.EPOCH);
        }
        this.agent = agent;
        this.writer = writer;
        this.gates = gates;
        this.options = options;
        this.cpuTopology = cpuTopology;
        this.collectIntervalSeconds = collectIntervalSeconds;
        this.clock = clock;
        this.beDir = writer.layout().qosDir("BestEffort");
        this.yarn = new YarnCgroups(writer, options.yarnParentUnder(beDir), agent::ownedByNodeManager);
    }

    public synchronized void start() {
        lifecycle.start(() -> {
            thread = Executors.newSingleThreadScheduledExecutor(Daemons.named("koordlet-qos"));
            thread.scheduleWithFixedDelay(this::runOnceSafely, 1, 1, TimeUnit.SECONDS);
        });
        LOG.info("koordlet QoS: BE cgroup {}, feature gates {}, cpu.idle mark {}, memory.high {}, memory pressure eviction {}", beDir,
                gates.asMap(), options.beCpuIdle() ? "on" : "off", options.beMemoryHigh() ? "on" : "off", options.memoryPressure());
    }

    private void runOnceSafely() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            LOG.error("koordlet QoS: a round failed; trying again in a second", e);
        }
    }

    /** One round; returns it (also kept for {@link #last()}), empty until the agent has a Node and a sample. */
    public Optional<Round> runOnce() {
        Instant now = clock.instant();
        refreshTopology(now);
        boolean beExists = writer.exists(beDir);
        if (!beExists) {
            warnings.warn("koordlet QoS", "no BE cgroup " + beDir + " on this host (no kubelet?): decisions are computed,"
                    + " nothing is written");
        }
        List<Integer> cpuset = writer.get(beDir, CgroupWriter.Knob.CPUSET_CPUS).map(this::cpusetOf).orElse(null);
        long quota = writer.get(beDir, CgroupWriter.Knob.CPU_QUOTA).map(Long::parseLong).orElse(BestEffortState.UNSET_QUOTA);
        List<String> problems = new ArrayList<>();
        Optional<NodeSnapshot> snapshot = snapshots.assemble(agent, gates, topology,
                new BestEffortState(cpuset, quota, BestEffortState.DEFAULT_PERIOD, null, null), collectIntervalSeconds, problems);
        problems.forEach(p -> warnings.warn("koordlet QoS input", p));
        if (snapshot.isEmpty()) {
            return Optional.empty();
        }
        NodeSnapshot snap = snapshot.get().withBestEffort(beCpu.record(now, snapshot.get()));
        double someAvg10 = agent.lastSample().pressure().memorySome();
        pressureHighSince = someAvg10 >= options.memoryPressure().someAvg10Percent()
                ? (pressureHighSince == null ? now : pressureHighSince) : null;
        QoSContext context = new QoSContext(options.beMemoryHigh(), options.memoryPressure(), someAvg10,
                pressureHighSince == null ? 0 : Duration.between(pressureHighSince, now).toSeconds());
        CpuSuppressDecision suppress = QoSStrategies.CPU_SUPPRESS.decide(snap, context);
        BeMemoryHigh.Decision memoryHigh = QoSStrategies.BE_MEMORY_HIGH.decide(snap, context);
        if (beExists) {
            // Each step on its own: one that fails (a bug, a kernel that refuses) never stops the others or the evictions.
            guarded("YARN placement", () -> yarn.reconcile(agent.yarnContainers().orElse(List.of())));
            guarded("CPU suppress", () -> new BeCpuEnforcer(writer, beDir).apply(suppress, cpuset == null ? List.of() : cpuset,
                    options.beCpuIdle()));
            guarded("memory.high", () -> applyMemoryHigh(memoryHigh));
        }
        Map<String, EvictionDecision> decisions = new LinkedHashMap<>();
        List<Eviction> done = new ArrayList<>();
        evicted.values().removeIf(t -> t.isBefore(now.minus(RECENTLY_EVICTED)));
        Set<EvictionStrategy.Area> evictedIn = EnumSet.noneOf(EvictionStrategy.Area.class);
        for (EvictionStrategy strategy : QoSStrategies.evictions()) {
            EvictionDecision d = strategy.decide(snap, context);
            decisions.put(strategy.name(), d);
            EvictionStrategy.Area area = strategy.area();
            // An area's first strategy that evicts ends its round; then the area cools down.
            if (!evictedIn.contains(area) && !now.isBefore(lastEviction.get(area).plus(area.coolDown()))
                    && carryOut(now, area.label(), d, snap, done)) {
                evictedIn.add(area);
                lastEviction.put(area, now);
            }
        }
        Round round = new Round(now, suppress, memoryHigh, decisions, beExists, done);
        last = round;
        return Optional.of(round);
    }

    /**
     * Evicts the area's victims not already terminating; true when one was evicted. YARN containers chosen for CPU
     * leave together by one release whose limit also keeps out those released earlier and still running.
     */
    private boolean carryOut(Instant now, String area, EvictionDecision d, NodeSnapshot snapshot, List<Eviction> done) {
        boolean any = false;
        String reason = String.join("; ", d.explain());
        Map<Victim, String> graceful = new LinkedHashMap<>();
        for (Map.Entry<String, EvictionDecision.Strategy> s : d.strategies().entrySet()) {
            for (Victim v : s.getValue().victims()) {
                if (evicted.containsKey(v)) {
                    continue;
                }
                if (v.kind() == Victim.Kind.YarnContainer && area.equals("cpu")) {
                    graceful.putIfAbsent(v, s.getKey());
                    continue;
                }
                String route = v.kind() == Victim.Kind.Pod ? "eviction-api" : "copilot-kill";
                any |= record(now, v, area, s.getKey(), route, reason, evictions.evict(v, area, s.getKey(), reason), done);
            }
        }
        if (!graceful.isEmpty()) {
            Set<String> leaving = new LinkedHashSet<>();
            evicted.keySet().stream().filter(v -> v.kind() == Victim.Kind.YarnContainer).forEach(v -> leaving.add(v.name()));
            graceful.keySet().forEach(v -> leaving.add(v.name()));
            YarnRelease release = YarnReleases.of(snapshot.yarnContainers(), leaving, now.plus(YARN_RELEASE_HOLD),
                    String.join(", ", new LinkedHashSet<>(graceful.values())) + ": " + reason);
            Optional<String> failure = evictions.releaseYarn(release);
            for (Map.Entry<Victim, String> g : graceful.entrySet()) {
                any |= record(now, g.getKey(), area, g.getValue(), "graceful", reason, failure, done);
            }
        }
        return any;
    }

    /** Records one eviction's outcome (log, counts, round); true when it was done. */
    private boolean record(Instant now, Victim v, String area, String strategy, String route, String reason,
            Optional<String> failure, List<Eviction> done) {
        done.add(new Eviction(now, v, area, strategy, failure.orElse(null)));
        evictionCounts.merge(route + "/" + strategy + "/" + (failure.isEmpty() ? "done" : "failed"), 1L, Long::sum);
        if (failure.isPresent()) {
            LOG.warn("koordlet QoS: {} chose {} but it was not evicted: {}", strategy, v, failure.get());
            return false;
        }
        evicted.put(v, now);
        LOG.warn("koordlet QoS: evicted {} by {} ({} route): {}", v, strategy, route, reason);
        return true;
    }

    private void guarded(String step, Runnable r) {
        String subject = "koordlet QoS " + step;
        try {
            r.run();
            warnings.resolved(subject);
        } catch (RuntimeException e) {
            if (warnings.warn(subject, "failed, the round goes on without it: " + e)) {
                LOG.error("koordlet QoS: {} failed", step, e);
            }
        }
    }

    /** memory.high on the BE cgroup where the kernel has it (v2): the decision's bytes, or no limit when off. */
    private void applyMemoryHigh(BeMemoryHigh.Decision d) {
        if (!writer.supports(beDir, CgroupWriter.Knob.MEMORY_HIGH)) {
            if (d.highBytes() != null) {
                warnings.warn("koordlet QoS memory.high", "qos.beMemoryHigh is on but " + beDir + " has no memory.high (cgroup "
                        + writer.layout().version() + "; it needs v2): the BE tier is not throttled before eviction");
            }
            return;
        }
        writer.set(beDir, CgroupWriter.Knob.MEMORY_HIGH, d.highBytes() == null ? "-1" : Long.toString(d.highBytes()),
                String.join("; ", d.explain()));
    }

    /** The CPUs of the BE cpuset file's text; read again only when the text changed (every round reads the file). */
    private List<Integer> cpusetOf(String text) {
        if (!text.equals(cpusetText)) {
            cpusetCpus = NodeAnnotations.cpuList(text);
            cpusetText = text;
        }
        return cpusetCpus;
    }

    /** Evictions so far by {@code route/strategy/outcome}. */
    public Map<String, Long> evictionCounts() {
        return Map.copyOf(evictionCounts);
    }

    private void refreshTopology(Instant now) {
        if (!topology.isEmpty() && now.isBefore(topologyRead.plusSeconds(TOPOLOGY_REFRESH_SECONDS))) {
            return;
        }
        try {
            topology = cpuTopology.read();
            topologyRead = now;
        } catch (IOException | RuntimeException e) {
            warnings.warn("koordlet QoS topology", "cannot read the CPU topology: " + e.getMessage());
        }
    }

    /** The last round, null before the first. */
    public Round last() {
        return last;
    }

    public List<CgroupWriter.Write> writes() {
        return writer.audit();
    }

    @Override
    public synchronized void close() {
        if (lifecycle.close() == Lifecycle.State.STARTED) {
            thread.shutdownNow();
        }
    }
}
