package io.colocation.simulator.fast;

import io.colocation.api.yarn.VictimOrder;
import io.colocation.api.yarn.YarnApplications;
import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.koordlet.yarn.YarnContainers;
import io.colocation.simulator.measure.YarnCounters;
import io.colocation.simulator.measure.YarnNodeFigures;
import io.colocation.simulator.model.host.BatchTask;
import io.colocation.simulator.model.host.SimulatedCopilot;
import io.colocation.simulator.model.host.SimulatedHost;
import io.colocation.simulator.model.workload.WorkloadModel;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The fast engine's YARN: a model of the ResourceManager's allocation, said so in docs/simulator.md. Applications are
 * served first come, first served (one queue); each asks for its ApplicationMaster (1 vcore, 2 GiB), which the RM starts
 * itself; the master asks for its tasks and starts the containers it was given on its own heartbeats
 * ({@link #mastersHeartbeat}); a NodeManager heartbeat gives its node containers, one a simulated second, each for the
 * first ask that fits what the node's capacity leaves, memory and vcores both (the DominantResourceCalculator the
 * plugin's CapacityScheduler config sets). A master lost ends its attempt as the RM ends one ({@link #again}). What is
 * the product's own: the broker's grants arrive through {@link YarnSide} as they would through the plugin's ZooKeeper
 * documents, take effect {@code pluginApply} later, and a node whose grant (or what it keeps, if more) fell below its
 * allocation has containers chosen by {@link VictimOrder} (the plugin's and the copilot's one order) marked, then killed
 * PREEMPTED after the plugin's wait; the koordlet sees the node's containers and kills through {@link #containers}.
 * The broker's pass reads and publishes from its threads, a node on one thread; what those calls share is guarded.
 */
final class FastYarn implements YarnSide {
    static final int AM_VCORES = 1;
    static final long AM_MEMORY_MB = 2048;
    static final int TASK_PRIORITY = 20;

    private final Clock clock;
    private final YarnCounters counters = new YarnCounters();
    private final Map<String, NodeState> byHost = new LinkedHashMap<>();
    private final Map<String, NodeState> byNodeId = new LinkedHashMap<>();
    private final Deque<App> apps = new ArrayDeque<>();
    private final long pluginApplyMillis;
    /** How many containers one heartbeat may bring a node. */
    private final int containersPerHeartbeat;
    private final long waitBeforeKillMillis;
    private final Set<String> changed = new HashSet<>();
    /** The plugin reports a node's changed allocation at most this often, and an unchanged one this often. */
    private final long reportMinIntervalMillis;
    private final long reportRefreshMillis;
    private Usage demand = Usage.NONE;
    private boolean demandChanged = true;
    private long containerIds;
    private long appIds;
    private long zkWrites;

    /** A container: its task on the host, its application, whether it is the ApplicationMaster. */
    private record Container(String id, App app, WorkloadModel.TaskShape shape, BatchTask task) {
    }

    private static final class App {
        final long id;
        final Deque<WorkloadModel.TaskShape> pending = new ArrayDeque<>();
        final Deque<Long> askedAt = new ArrayDeque<>();
        final int tasks;
        int done;
        Container master;
        /** The tasks its master asked for (on its last heartbeat) that the RM has not given it yet. */
        int asked;
        /** Containers the RM gave it, started on its next heartbeat. */
        final List<Container> acquired = new ArrayList<>();
        /** Masters lost in ways that count against {@link WorkloadModel.YarnApplication#MAX_ATTEMPTS}. */
        int failedAttempts;
        /** The running containers (the master's too), each with its node. */
        final Map<String, NodeState> running = new LinkedHashMap<>();

        App(long id, List<WorkloadModel.TaskShape> shapes, long now) {
            this.id = id;
            this.tasks = shapes.size();
            for (WorkloadModel.TaskShape s : shapes) {
                pending.add(s);
                askedAt.add(now);
            }
        }
    }

    private final class NodeState {
        final SimulatedHost host;
        final String nodeId;
        /** What the scheduler enforces: the NodeManager's own totals until a grant is applied. */
        long capacityVcores;
        long capacityMemoryMB;
        long allocatedVcores;
        long allocatedMemoryMB;
        /** The allocation as the plugin last reported it to the broker, and when (simulated ms). */
        Usage reported = Usage.NONE;
        long reportedAt = Long.MIN_VALUE / 2;
        final Map<String, Container> containers = new LinkedHashMap<>();
        /** Containers allocated here whose ApplicationMaster has not started them yet: not running on the NodeManager. */
        final Set<String> notStarted = new HashSet<>();
        /** The tasks of the containers started here, as the NodeManager lists them; null when they changed since. */
        List<BatchTask> started;
        final Map<String, Long> marked = new LinkedHashMap<>();
        YarnGrant published;
        YarnGrant applied;
        final Deque<YarnGrant> unapplied = new ArrayDeque<>();
        final Deque<Long> applyAt = new ArrayDeque<>();

        NodeState(SimulatedHost host) {
            this.host = host;
            this.nodeId = host.name() + ":45454";
            this.capacityVcores = (long) host.cores();
            this.capacityMemoryMB = host.memory() >> 20;
        }

        boolean fits(long vcores, long memoryMB) {
            return allocatedVcores + vcores <= capacityVcores && allocatedMemoryMB + memoryMB <= capacityMemoryMB;
        }
    }

    /**
     * @param reportMinIntervalMillis a node's changed allocation is reported to the broker at most this often
     * @param reportRefreshMillis     and an unchanged one this often (the plugin's report settings)
     */
    FastYarn(Clock clock, int containersPerHeartbeat, long pluginApplyMillis, long waitBeforeKillMillis, long reportMinIntervalMillis,
            long reportRefreshMillis) {
        this.clock = clock;
        this.containersPerHeartbeat = containersPerHeartbeat;
        this.pluginApplyMillis = pluginApplyMillis;
        this.waitBeforeKillMillis = waitBeforeKillMillis;
        this.reportMinIntervalMillis = reportMinIntervalMillis;
        this.reportRefreshMillis = reportRefreshMillis;
    }

    /** A NodeManager registers on the host with the host's totals. */
    void register(SimulatedHost host) {
        NodeState n = new NodeState(host);
        byHost.put(host.name(), n);
        byNodeId.put(n.nodeId, n);
    }

    YarnCounters counters() {
        return counters;
    }

    /** ZooKeeper writes the real parts would make: the broker's grants and the plugin's acknowledgements. */
    long zooKeeperWrites() {
        return zkWrites;
    }

    void submit(WorkloadModel.YarnApplication app) {
        apps.add(new App(++appIds, app.tasks(), clock.millis()));
        demandChanged = true;
        counters.applicationSubmitted(app.tasks().size());
    }

    int pendingTasks() {
        int n = 0;
        for (App a : apps) {
            n += a.pending.size();
        }
        return n;
    }

    double pendingVcoresNow() {
        long n = 0;
        for (App a : apps) {
            for (WorkloadModel.TaskShape t : a.pending) {
                n += t.cpuMilli() / 1000;
            }
        }
        return n;
    }

    /**
     * Every NodeManager heartbeats once: each node gets up to {@code containersPerHeartbeat} containers, each the first
     * ask (in submission order) it fits.
     */
    void heartbeat() {
        long now = clock.millis();
        applyDueGrants(now);
        List<App> asking = new ArrayList<>();
        for (App a : apps) {
            if (a.master == null || a.asked > 0) {
                asking.add(a);
            }
        }
        if (!asking.isEmpty()) {
            for (NodeState n : byHost.values()) {
                // the smallest ask there is: an ApplicationMaster, or a task of one vcore and its memory
                for (int i = 0; i < containersPerHeartbeat && !asking.isEmpty() && n.fits(1, AM_MEMORY_MB); i++) {
                    if (!allocateOne(n, asking, now)) {
                        break;
                    }
                    asking.removeIf(a -> a.master != null && a.asked == 0);
                }
                if (asking.isEmpty()) {
                    break;
                }
            }
        }
        preempt(now);
        report(now);
    }

    /** The plugin's allocation reports: a node's changed allocation at most every min interval, any at the refresh. */
    private void report(long now) {
        for (NodeState n : byHost.values()) {
            boolean differs = n.reported.vcores() != n.allocatedVcores || n.reported.memoryMB() != n.allocatedMemoryMB;
            if (differs && now - n.reportedAt >= reportMinIntervalMillis || now - n.reportedAt >= reportRefreshMillis) {
                n.reported = new Usage((int) n.allocatedVcores, n.allocatedMemoryMB);
                n.reportedAt = now;
                zkWrites++;
                if (differs) {
                    changed.add(n.nodeId);
                }
            }
        }
    }

    /** The first ask of {@code asking} the node fits gets a container there; false when none fits. */
    private boolean allocateOne(NodeState n, List<App> asking, long now) {
        for (App a : asking) {
            if (a.master == null) {
                if (n.fits(AM_VCORES, AM_MEMORY_MB)) {
                    BatchTask task = new BatchTask(nextContainerId(a), BatchTask.Side.YARN, "", AM_VCORES * 1000L, AM_MEMORY_MB << 20, 0.3,
                            (AM_MEMORY_MB << 20) / 2, 0, true, 0, now);
                    a.master = place(n, a, null, task);
                    n.host.start(task); // the RM launches the master itself
                    return true;
                }
                continue; // an application whose master is not running asks for nothing else
            }
            WorkloadModel.TaskShape t = a.pending.peek();
            if (t == null || a.asked == 0) {
                continue;
            }
            long vcores = t.cpuMilli() / 1000;
            long mb = t.memoryBytes() >> 20;
            if (n.fits(vcores, mb)) {
                a.pending.poll();
                a.asked--;
                counters.queued(Math.max(0, now - a.askedAt.poll()));
                BatchTask task = new BatchTask(nextContainerId(a), BatchTask.Side.YARN, "", t.cpuMilli(), t.memoryBytes(),
                        vcores * t.cpuUse(), t.memoryUse(), t.workCoreSeconds(), false, TASK_PRIORITY, now);
                a.acquired.add(place(n, a, t, task));
                n.notStarted.add(task.id());
                n.started = null;
                return true;
            }
        }
        return false;
    }

    private String nextContainerId(App a) {
        // YARN's form (container_<cluster ts>_<app>_<attempt>_<id>); concatenated: this runs for every container
        return "container_1_" + a.id + "_01_" + ++containerIds;
    }

    /** The RM allocates the container on the node: its room is taken. */
    private Container place(NodeState n, App a, WorkloadModel.TaskShape shape, BatchTask task) {
        Container c = new Container(task.id(), a, shape, task);
        demandChanged = true;
        n.containers.put(c.id(), c);
        n.started = null;
        a.running.put(c.id(), n);
        n.allocatedVcores += task.requestMilli() / 1000;
        n.allocatedMemoryMB += task.requestMemory() >> 20;
        changed.add(n.nodeId);
        return c;
    }

    /**
     * Every running ApplicationMaster heartbeats once: it starts the containers it was given since its last heartbeat, asks
     * for all its pending tasks (the first heartbeat registers and asks; those it learnt ended are pending again), and
     * finishes when every task succeeded.
     */
    void mastersHeartbeat() {
        for (App a : new ArrayList<>(apps)) {
            if (a.master == null) {
                continue;
            }
            if (a.done >= a.tasks) {
                finish(a);
                continue;
            }
            for (Container c : a.acquired) {
                NodeState n = a.running.get(c.id());
                if (n != null && n.notStarted.remove(c.id())) {
                    n.started = null;
                    n.host.start(c.task());
                }
            }
            a.acquired.clear();
            a.asked = a.pending.size();
        }
    }

    /** The container left its node: its room is free again. */
    private Container release(NodeState n, String id) {
        Container c = n.containers.remove(id);
        n.started = null;
        if (c != null) {
            c.app().running.remove(id);
            n.notStarted.remove(id);
            n.allocatedVcores -= c.task().requestMilli() / 1000;
            n.allocatedMemoryMB -= c.task().requestMemory() >> 20;
            n.marked.remove(id);
            changed.add(n.nodeId);
        }
        return c;
    }

    /** The host ended one of its YARN tasks: done, or killed by the kernel (run again). */
    void ended(SimulatedHost host, BatchTask task, SimulatedHost.Ending how) {
        NodeState n = byHost.get(host.name());
        Container c = release(n, task.id());
        if (c == null) {
            return;
        }
        if (how == SimulatedHost.Ending.OOM_KILLED) {
            counters.taskOomKilled();
            again(c, true);
            return;
        }
        if (c.shape() != null) {
            counters.taskCompleted();
            App a = c.app();
            a.done++; // the master learns it, and finishes, on its next heartbeat
        }
    }

    /**
     * A container was taken: its task asks again, first in its application's queue. A master taken ends the attempt, and
     * the RM kills the attempt's containers (they are not kept across attempts): the next attempt asks for its master and
     * then for those tasks again, keeping the ones that succeeded; unless the loss {@code counts} (the scheduler's
     * preemption does not) and the application has no attempt left: then it fails.
     */
    private void again(Container c, boolean counts) {
        App a = c.app();
        demandChanged = true;
        if (c.shape() != null) {
            a.pending.addFirst(c.shape());
            a.askedAt.addFirst(clock.millis());
            return;
        }
        a.master = null;
        a.asked = 0;
        a.acquired.clear();
        boolean failed = counts && ++a.failedAttempts >= WorkloadModel.YarnApplication.MAX_ATTEMPTS;
        for (Map.Entry<String, NodeState> e : new ArrayList<>(a.running.entrySet())) {
            e.getValue().host.stop(e.getKey());
            Container task = release(e.getValue(), e.getKey());
            if (!failed) {
                a.pending.addFirst(task.shape());
                a.askedAt.addFirst(clock.millis());
            }
        }
        if (failed) {
            apps.remove(a);
            counters.applicationFailed();
        }
    }

    private void finish(App a) {
        apps.remove(a);
        demandChanged = true;
        counters.applicationFinished();
        for (Map.Entry<String, NodeState> e : new ArrayList<>(a.running.entrySet())) {
            e.getValue().host.stop(e.getKey());
            release(e.getValue(), e.getKey());
        }
    }

    private void applyDueGrants(long now) {
        for (NodeState n : byHost.values()) {
            while (!n.applyAt.isEmpty() && n.applyAt.peek() <= now) {
                n.applyAt.poll();
                YarnGrant g = n.unapplied.poll();
                n.applied = g;
                n.capacityVcores = g.vcores();
                n.capacityMemoryMB = g.memoryMB();
                zkWrites++; // the plugin's acknowledgement
                changed.add(n.nodeId);
            }
        }
    }

    /**
     * The plugin's graceful preemption: where the allocation is above the applied grant and above what it keeps,
     * containers chosen by {@link VictimOrder} are marked; those still running after the wait, while the node is still
     * over, are killed PREEMPTED and their tasks asked again.
     */
    private void preempt(long now) {
        for (NodeState n : byHost.values()) {
            if (n.applied == null) {
                continue;
            }
            long limitVcores = Math.max(n.capacityVcores, n.applied.keepVcores());
            long limitMb = Math.max(n.capacityMemoryMB, n.applied.keepMemoryMB());
            long overVcores = n.allocatedVcores - limitVcores;
            long overMb = n.allocatedMemoryMB - limitMb;
            if (overVcores <= 0 && overMb <= 0) {
                n.marked.clear();
                continue;
            }
            long markedVcores = 0;
            long markedMb = 0;
            for (String id : n.marked.keySet()) {
                Container c = n.containers.get(id);
                markedVcores += c.task().requestMilli() / 1000;
                markedMb += c.task().requestMemory() >> 20;
            }
            if (markedVcores < overVcores || markedMb < overMb) {
                List<VictimOrder.Candidate> running = new ArrayList<>();
                for (Container c : n.containers.values()) {
                    if (!n.marked.containsKey(c.id())) {
                        running.add(new VictimOrder.Candidate(c.id(), c.shape() == null, 0, c.task().priority(), c.task().startedMillis(),
                                c.task().requestMemory() >> 20, (int) (c.task().requestMilli() / 1000)));
                    }
                }
                for (VictimOrder.Candidate v : VictimOrder.choose(running, Math.max(0, overMb - markedMb),
                        (int) Math.max(0, overVcores - markedVcores))) {
                    n.marked.put(v.containerId(), now);
                }
            }
            List<String> due = new ArrayList<>();
            n.marked.forEach((id, at) -> {
                if (now - at >= waitBeforeKillMillis) {
                    due.add(id);
                }
            });
            for (String id : due) {
                if (n.allocatedVcores <= limitVcores && n.allocatedMemoryMB <= limitMb) {
                    break;
                }
                n.host.stop(id);
                Container c = release(n, id);
                if (c.shape() != null) {
                    counters.taskPreempted(); // as the application counts it: a master's end is not a task's
                }
                again(c, false);
            }
        }
    }

    YarnNodeFigures figures(String host) {
        NodeState n = byHost.get(host);
        return new YarnNodeFigures(n.capacityVcores * 1000, n.capacityMemoryMB << 20, n.allocatedVcores * 1000, n.allocatedMemoryMB << 20,
                n.published == null ? -1 : n.published.vcores() * 1000L);
    }

    /** The koordlet's view of the host's NodeManager (its copilot): the containers, and a kill (carried out from {@code outbox}). */
    YarnContainers containers(String host, List<Runnable> outbox) {
        NodeState n = byHost.get(host);
        return new SimulatedCopilot() {
            @Override
            protected Collection<BatchTask> running() {
                // built again only after a change: the host's koordlet asks every step (its own node, on the step's thread)
                if (n.started == null) {
                    List<BatchTask> tasks = new ArrayList<>(n.containers.size());
                    for (Container c : n.containers.values()) {
                        if (!n.notStarted.contains(c.id())) {
                            tasks.add(c.task());
                        }
                    }
                    n.started = List.copyOf(tasks);
                }
                return n.started;
            }

            @Override
            public String describe() {
                return "the fast engine's NodeManager " + n.nodeId;
            }

            @Override
            public Optional<String> kill(String containerID, String reason) {
                if (!n.containers.containsKey(containerID)) {
                    return Optional.of("container " + containerID + " is not running on " + n.nodeId);
                }
                // carried out when the step's writes are applied, in host order (the koordlets of a step run in parallel)
                outbox.add(() -> {
                    if (n.containers.containsKey(containerID)) {
                        n.host.stop(containerID);
                        Container c = release(n, containerID);
                        counters.taskKilled();
                        again(c, true);
                    }
                });
                return Optional.empty();
            }
        };
    }

    // The broker's side

    @Override
    public String clusterId() {
        return YarnContract.DEFAULT_CLUSTER_ID;
    }

    @Override
    public void start(Runnable onApplied) {
    }

    @Override
    public void resume() {
    }

    @Override
    public Collection<String> knownNodes() {
        return byNodeId.keySet();
    }

    @Override
    public Optional<Usage> used(String nodeId) {
        NodeState n = byNodeId.get(nodeId);
        return n == null ? Optional.empty() : Optional.of(n.reported);
    }

    @Override
    public synchronized Usage demand() {
        if (demandChanged) {
            demand = pendingDemand();
            demandChanged = false;
        }
        return demand;
    }

    private Usage pendingDemand() {
        long vcores = 0;
        long mb = 0;
        for (App a : apps) {
            if (a.master == null) {
                vcores += AM_VCORES;
                mb += AM_MEMORY_MB;
            }
            for (WorkloadModel.TaskShape t : a.pending) {
                vcores += t.cpuMilli() / 1000;
                mb += t.memoryBytes() >> 20;
            }
        }
        return new Usage((int) Math.min(Integer.MAX_VALUE, vcores), mb);
    }

    @Override
    public Optional<YarnApplications> applications() {
        return Optional.empty();
    }

    @Override
    public Set<String> takeChangedNodes() {
        Set<String> out = new HashSet<>(changed);
        changed.clear();
        return out;
    }

    @Override
    public boolean reachable(String nodeId) {
        return true;
    }

    @Override
    public Health health() {
        return new Health(true, "the fast engine's YARN model");
    }

    @Override
    public Optional<YarnGrant> grant(String nodeId) {
        NodeState n = byNodeId.get(nodeId);
        return n == null ? Optional.empty() : Optional.ofNullable(n.published);
    }

    @Override
    public Optional<Usage> applied(String nodeId) {
        NodeState n = byNodeId.get(nodeId);
        return n == null || n.applied == null ? Optional.empty() : Optional.of(new Usage(n.applied.vcores(), n.applied.memoryMB()));
    }

    @Override
    public Optional<Usage> unconfirmed(String nodeId) {
        NodeState n = byNodeId.get(nodeId);
        if (n == null || n.unapplied.isEmpty()) {
            return Optional.empty();
        }
        int vcores = 0;
        long mb = 0;
        for (YarnGrant g : n.unapplied) {
            vcores = Math.max(vcores, g.vcores());
            mb = Math.max(mb, g.memoryMB());
        }
        return Optional.of(new Usage(vcores, mb));
    }

    @Override
    public synchronized YarnGrant publish(String nodeId, int vcores, long memoryMB, Usage keep) {
        NodeState n = byNodeId.get(nodeId);
        long version = n.published == null ? 1 : n.published.version() + 1;
        YarnGrant g = new YarnGrant(nodeId, 1, version, vcores, memoryMB, clock.millis(), keep.vcores(), keep.memoryMB());
        n.published = g;
        n.unapplied.add(g);
        n.applyAt.add(clock.millis() + pluginApplyMillis);
        zkWrites++;
        return g;
    }

    @Override
    public void close() {
    }
}
