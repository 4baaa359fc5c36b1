package io.colocation.koordlet.qos.agent;

import io.colocation.api.log.DistinctWarnings;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.collect.CpuTopologyReader;
import io.colocation.koordlet.qos.BestEffortState;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.Processor;
import io.colocation.koordlet.qos.cpusuppress.CpuSuppress;
import io.colocation.koordlet.qos.cpusuppress.CpuSuppressDecision;
import io.colocation.koordlet.qos.evict.CpuEvict;
import io.colocation.koordlet.qos.evict.EvictionDecision;
import io.colocation.koordlet.qos.evict.MemoryEvict;
import io.colocation.model.node.NodeAnnotations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The QoS loop of the agent on a real host: every second it puts YARN containers YARN left outside any cgroup into
 * the BE tier, builds the node snapshot, runs CPU suppress and writes its decision to the BE cgroup tree through the
 * cgroup writer (with the optional cpu.idle mark), and runs the memory and CPU eviction strategies. This version reports the eviction decisions (log, status) and does not carry them out.
 * Lifecycle LATENT → STARTED → CLOSED.
 */
public final class QoSManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QoSManager.class);
    private static final long TOPOLOGY_REFRESH_SECONDS = 60;

    /** The last round: when, the snapshot's decisions, and whether the BE cgroup was there to write. */
    public record Round(Instant time, CpuSuppressDecision cpuSuppress, EvictionDecision memoryEvict, EvictionDecision cpuEvict,
            boolean enforced) {
    }

    public enum State { LATENT, STARTED, CLOSED }

    private final AgentState agent;
    private final CgroupWriter writer;
    private final FeatureGates gates;
    private final boolean beCpuIdle;
    private final Path sysRoot;
    private final int collectIntervalSeconds;
    private final Clock clock;
    private final String beDir;
    private final YarnCgroups yarn;
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);
    private ScheduledExecutorService thread;
    private List<Processor> topology = List.of();
    private Instant topologyRead = Instant.EPOCH;
    private volatile Round last;
    private volatile State state = State.LATENT;

    /** @param yarnCgroupParent where YARN containers without a cgroup are put; empty: {@code <BE cgroup>/hadoop-yarn} */
    public QoSManager(AgentState agent, CgroupWriter writer, FeatureGates gates, boolean beCpuIdle, String yarnCgroupParent,
            Path sysRoot, int collectIntervalSeconds, Clock clock) {
        this.agent = agent;
        this.writer = writer;
        this.gates = gates;
        this.beCpuIdle = beCpuIdle;
        this.sysRoot = sysRoot;
        this.collectIntervalSeconds = collectIntervalSeconds;
        this.clock = clock;
        this.beDir = writer.layout().qosDir("BestEffort");
        this.yarn = new YarnCgroups(writer, yarnCgroupParent == null || yarnCgroupParent.isBlank() ? beDir + "/hadoop-yarn"
                : yarnCgroupParent.replaceAll("^/+|/+$", ""));
    }

    public synchronized void start() {
        if (state != State.LATENT) {
            throw new IllegalStateException("QoS manager already " + state);
        }
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "koordlet-qos");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::runOnceSafely, 1, 1, TimeUnit.SECONDS);
        state = State.STARTED;
        LOG.info("koordlet QoS: BE cgroup {}, feature gates {}, cpu.idle mark {}", beDir, gates.asMap(), beCpuIdle ? "on" : "off");
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
        boolean beExists = Files.isDirectory(writer.layout().file(beDir, CgroupLayout.Interface.CPUSET_CPUS).getParent());
        if (!beExists) {
            warnings.warn("koordlet QoS", "no BE cgroup " + beDir + " on this host (no kubelet?): decisions are computed,"
                    + " nothing is written");
        }
        List<Integer> cpuset = writer.get(beDir, CgroupWriter.Knob.CPUSET_CPUS).map(NodeAnnotations::cpuList).orElse(null);
        long quota = writer.get(beDir, CgroupWriter.Knob.CPU_QUOTA).map(Long::parseLong).orElse(BestEffortState.UNSET_QUOTA);
        List<String> problems = new ArrayList<>();
        Optional<NodeSnapshot> snapshot = SnapshotAssembler.assemble(agent, gates, topology,
                new BestEffortState(cpuset, quota, BestEffortState.DEFAULT_PERIOD, null, null), collectIntervalSeconds, problems);
        problems.forEach(p -> warnings.warn("koordlet QoS input", p));
        if (snapshot.isEmpty()) {
            return Optional.empty();
        }
        CpuSuppressDecision suppress = CpuSuppress.decide(snapshot.get());
        if (beExists) {
            yarn.reconcile(agent.yarnContainers().orElse(List.of()));
            new BeCpuEnforcer(writer, beDir).apply(suppress, cpuset == null ? List.of() : cpuset, beCpuIdle);
        }
        Round round = new Round(now, suppress, MemoryEvict.decide(snapshot.get()), CpuEvict.decide(snapshot.get()), beExists);
        for (EvictionDecision d : List.of(round.memoryEvict(), round.cpuEvict())) {
            if (!d.victims().isEmpty()) {
                LOG.warn("koordlet QoS: eviction decided, not carried out by this version: {} ({})", d.victims(), d.explain());
            }
        }
        last = round;
        return Optional.of(round);
    }

    private void refreshTopology(Instant now) {
        if (!topology.isEmpty() && now.isBefore(topologyRead.plusSeconds(TOPOLOGY_REFRESH_SECONDS))) {
            return;
        }
        try {
            topology = CpuTopologyReader.read(sysRoot);
            topologyRead = now;
        } catch (IOException | RuntimeException e) {
            warnings.warn("koordlet QoS topology", "cannot read the CPU topology under " + sysRoot + ": " + e.getMessage());
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
        if (thread != null) {
            thread.shutdownNow();
        }
        state = State.CLOSED;
    }
}
