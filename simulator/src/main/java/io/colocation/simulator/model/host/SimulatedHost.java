package io.colocation.simulator.model.host;

import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.Usage;
import io.colocation.koordlet.collect.UsageSource;
import io.colocation.koordlet.qos.cpusuppress.CpuSuppress;
import io.colocation.simulator.model.trace.OnlineLoad;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One simulated host: its online pods' demand from the node's load curve, the batch tasks running on it, its cgroups as
 * the koordlet writes them, and the {@link HostModel} sharing the CPU step by step. To the koordlet it is the usage
 * source ({@link #collect}), measuring what the last step used, as a kernel's counters would. Thread-safe: the stepper
 * advances it while the kubelet and NodeManager simulators start and stop tasks.
 */
public final class SimulatedHost implements UsageSource {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SimulatedHost.class);
    /** An online shortage lasting this long (several QoS rounds) is logged with the limits in force. */
    private static final long LONG_SHORT_MILLIS = 30_000;
    /** How a task left the host on its own. */
    public enum Ending { COMPLETED, OOM_KILLED }

    /** Told (outside the host's lock) when a task completes or the kernel kills it. */
    public interface Listener {
        void ended(SimulatedHost host, BatchTask task, Ending how);
    }

    /** One online pod: its uid, {@code namespace/name}, share of the node's online demand and memory in use. */
    public record OnlinePod(String uid, String key, double share, long memoryBytes) {
    }

    private final int index;
    private final String name;
    private final double cores;
    private final long memory;
    private final double systemCores;
    private final long systemMemory;
    private final OnlineLoad curves;
    /** Where the node's load curve starts (simulated ms); moved to the start of the measured day by {@link #startDay}. */
    private volatile long startMillis;
    private final SimulatedCgroups cgroups;
    private final Listener listener;
    private final Map<String, OnlinePod> online = new LinkedHashMap<>();
    private final Map<String, BatchTask> tasks = new LinkedHashMap<>();
    private final Totals totals = new Totals();
    private long lastMillis;
    private double lastOnline;
    private double lastSystem;
    /** The online pods' memory in use at the last step, as a multiple of what each was given (its mean). */
    private double lastMemoryFactor = 1;
    private long shortSinceMillis = -1;
    /** Since when online work has been short while the BE tier was above its floor (the suppression late); -1: not. */
    private long lateSinceMillis = -1;
    private long shortLoggedMillis = Long.MIN_VALUE / 2;

    public SimulatedHost(int index, String name, double cores, long memory, double systemCores, long systemMemory, OnlineLoad curves,
            long startMillis, SimulatedCgroups cgroups, Listener listener) {
        this.index = index;
        this.name = name;
        this.cores = cores;
        this.memory = memory;
        this.systemCores = systemCores;
        this.systemMemory = systemMemory;
        this.curves = curves;
        this.startMillis = startMillis;
        this.cgroups = cgroups;
        this.listener = listener;
        this.lastMillis = startMillis;
    }

    /** The measured day starts now: the load curve starts again from its beginning, and the counters from zero. */
    public synchronized void startDay(long nowMillis) {
        startMillis = nowMillis;
        lastMillis = nowMillis;
        totals.reset();
    }

    public synchronized void addOnlinePod(OnlinePod pod) {
        online.put(pod.uid(), pod);
    }

    public synchronized List<OnlinePod> onlinePods() {
        return new ArrayList<>(online.values());
    }

    /** Starts a batch task (a bound pod admitted by the kubelet, a container launched by the NodeManager). */
    public synchronized void start(BatchTask task) {
        tasks.put(task.id(), task);
    }

    /** Stops a task from outside (eviction, preemption, a kill): null when it is not running here. */
    public synchronized BatchTask stop(String id) {
        return tasks.remove(id);
    }

    public synchronized BatchTask task(String id) {
        return tasks.get(id);
    }

    /** The YARN containers running here, for the koordlet's view of the NodeManager. */
    public synchronized List<BatchTask> yarnTasks() {
        List<BatchTask> out = new ArrayList<>();
        for (BatchTask t : tasks.values()) {
            if (t.side() == BatchTask.Side.YARN) {
                out.add(t);
            }
        }
        return out;
    }

    /** Runs the host from the last step to {@code nowMillis} (simulated) under the cgroup limits in force. */
    public void advance(long nowMillis) {
        List<BatchTask> completed = new ArrayList<>();
        List<BatchTask> killed = new ArrayList<>();
        synchronized (this) {
            double dt = (nowMillis - lastMillis) / 1000.0;
            if (dt <= 0) {
                return;
            }
            double seconds = (lastMillis + nowMillis) / 2000.0 - startMillis / 1000.0;
            double onlineDemand = curves.onlineCores(index, seconds, cores);
            lastMemoryFactor = curves.memoryFactor(index, seconds);
            BatchTask[] running = tasks.values().toArray(new BatchTask[0]);
            double[] demand = new double[running.length];
            for (int i = 0; i < running.length; i++) {
                demand[i] = running[i].demandCores();
            }
            // The limits in force for this step, read once: the koordlet may write them meanwhile, and the share and the
            // floor check must judge the same ones.
            double beQuota = cgroups.beQuotaCores();
            double beCpuset = cgroups.beCpusetCores();
            HostModel.CpuShares s = HostModel.shareCpu(cores, systemCores, onlineDemand, demand, beQuota, beCpuset);
            lastOnline = s.online();
            lastSystem = s.system();
            double k8s = 0;
            double yarn = 0;
            for (int i = 0; i < running.length; i++) {
                BatchTask t = running[i];
                if (t.side() == BatchTask.Side.KUBERNETES) {
                    k8s += s.beTasks()[i];
                } else {
                    yarn += s.beTasks()[i];
                }
                if (t.run(s.beTasks()[i], dt)) {
                    completed.add(t);
                }
            }
            // At Koordinator's floor the suppression can take nothing more from the BE tier: online work short then wants
            // more than capacity - system - the floor (a real kernel's CFS weights would give it the floor's CPUs too).
            boolean atFloor = beCpuset <= CpuSuppress.BE_MIN_CPUSET_CPUS || beQuota <= CpuSuppress.BE_MIN_QUOTA / 1000.0;
            totals.add(dt, s, k8s, yarn, atFloor);
            if (s.onlineShort() > 1e-6 && !atFloor) {
                if (lateSinceMillis < 0) {
                    lateSinceMillis = lastMillis;
                }
                totals.lateEpisode(nowMillis - lateSinceMillis);
            } else {
                lateSinceMillis = -1;
            }
            if (s.onlineShort() > 1e-6) {
                if (shortSinceMillis < 0) {
                    shortSinceMillis = lastMillis;
                }
                totals.shortEpisode(nowMillis - shortSinceMillis, false);
                long lasted = nowMillis - shortSinceMillis;
                // Longer than a few QoS rounds: say why (the limits in force against what online pods wanted).
                if (lasted >= LONG_SHORT_MILLIS && nowMillis - shortLoggedMillis >= LONG_SHORT_MILLIS) {
                    shortLoggedMillis = nowMillis;
                    LOG.info("{}: online pods short for {} s: wanted {} cores, got {}; system {}; BE tier got {} of its demand {}"
                                    + " under quota {} and cpuset {} cores{}", name, lasted / 1000, fmt(onlineDemand), fmt(s.online()),
                            fmt(s.system()), fmt(s.be()), fmt(s.be() + s.beThrottled()), fmt(beQuota), fmt(beCpuset),
                            atFloor ? " (Koordinator's floor: nothing more to suppress)" : "");
                }
            } else if (shortSinceMillis >= 0) {
                totals.shortEpisode(lastMillis - shortSinceMillis, true);
                shortSinceMillis = -1;
            }
            lastMillis = nowMillis;
            for (BatchTask t : completed) {
                tasks.remove(t.id());
            }
            // The kernel's OOM killer, when what is left does not fit.
            BatchTask[] left = tasks.values().toArray(new BatchTask[0]);
            long[] mem = new long[left.length];
            for (int i = 0; i < left.length; i++) {
                mem[i] = left[i].memoryUse();
            }
            for (int v : HostModel.oomVictims(memory, onlineMemory() + systemMemory, mem)) {
                tasks.remove(left[v].id());
                killed.add(left[v]);
            }
            totals.oomKills += killed.size();
        }
        completed.forEach(t -> listener.ended(this, t, Ending.COMPLETED));
        killed.forEach(t -> listener.ended(this, t, Ending.OOM_KILLED));
    }

    private long onlineMemory() {
        long m = 0;
        for (OnlinePod p : online.values()) {
            m += memoryInUse(p);
        }
        return m;
    }

    private long memoryInUse(OnlinePod p) {
        return Math.round(p.memoryBytes() * lastMemoryFactor);
    }

    /** What the last step used, as the koordlet's collector would read it from the kernel. */
    @Override
    public synchronized HostSample collect(CollectTargets targets, long nowMillis) {
        Map<String, Usage> pods = new HashMap<>();
        double node = lastSystem;
        long nodeMemory = systemMemory;
        for (OnlinePod p : online.values()) {
            node += lastOnline * p.share();
            nodeMemory += memoryInUse(p);
        }
        Map<String, Usage> yarn = new HashMap<>();
        for (BatchTask t : tasks.values()) {
            node += t.usedCores();
            nodeMemory += t.memoryUse();
            if (t.side() == BatchTask.Side.YARN) {
                yarn.put(t.id(), new Usage(t.usedCores(), t.memoryUse()));
            }
        }
        for (CollectTargets.PodTarget target : targets.pods()) {
            OnlinePod p = online.get(target.uid());
            if (p != null) {
                pods.put(p.uid(), new Usage(lastOnline * p.share(), memoryInUse(p)));
                continue;
            }
            BatchTask t = tasks.get(target.uid());
            if (t != null) {
                pods.put(t.id(), new Usage(t.usedCores(), t.memoryUse()));
            }
        }
        return new HostSample(nowMillis, new Usage(node, nodeMemory), pods, Map.of(), Map.of(), yarn, HostSample.yarnTotal(true, yarn),
                HostSample.Pressure.NONE);
    }

    @Override
    public String describe() {
        return "simulated host " + name + " (" + cores + " cores)";
    }

    @Override
    public Map<String, String> problems() {
        return Map.of();
    }

    /** What the host did since the last call, for the sampler. */
    public synchronized Totals drain() {
        Totals t = totals.copy();
        totals.reset();
        return t;
    }

    /** Memory in use now: online pods, system, Kubernetes batch, YARN. */
    public synchronized long[] memoryInUse() {
        long k8s = 0;
        long yarn = 0;
        for (BatchTask t : tasks.values()) {
            if (t.side() == BatchTask.Side.KUBERNETES) {
                k8s += t.memoryUse();
            } else {
                yarn += t.memoryUse();
            }
        }
        return new long[] {onlineMemory(), systemMemory, k8s, yarn};
    }

    public synchronized Collection<BatchTask> tasks() {
        return new ArrayList<>(tasks.values());
    }

    public int index() {
        return index;
    }

    public String name() {
        return name;
    }

    public double cores() {
        return cores;
    }

    public long memory() {
        return memory;
    }

    public SimulatedCgroups cgroups() {
        return cgroups;
    }

    /** Core-seconds by consumer and the host's other counters, summed over steps. */
    public static final class Totals {
        public double seconds;
        public double online;
        public double onlineShort;
        public double onlineWanted;
        public double system;
        public double kubernetes;
        public double yarn;
        public double throttled;
        /** Short while the BE tier was at Koordinator's floor (core-seconds): beyond what any suppression can give. */
        public double onlineShortAtFloor;
        /** Short episodes that ended, and the longest seen (ended or not), in simulated ms. */
        public long shortEpisodes;
        public long longestShortMillis;
        /** The longest run of short steps while the BE tier was above its floor: the suppression's lag (simulated ms). */
        public long longestLateMillis;
        public long oomKills;

        void add(double dt, HostModel.CpuShares s, double k8s, double yarnCores, boolean beAtFloor) {
            seconds += dt;
            online += s.online() * dt;
            onlineShort += s.onlineShort() * dt;
            if (beAtFloor) {
                onlineShortAtFloor += s.onlineShort() * dt;
            }
            onlineWanted += (s.online() + s.onlineShort()) * dt;
            system += s.system() * dt;
            kubernetes += k8s * dt;
            yarn += yarnCores * dt;
            throttled += s.beThrottled() * dt;
        }

        void lateEpisode(long millis) {
            longestLateMillis = Math.max(longestLateMillis, millis);
        }

        void shortEpisode(long millis, boolean ended) {
            longestShortMillis = Math.max(longestShortMillis, millis);
            if (ended) {
                shortEpisodes++;
            }
        }

        Totals copy() {
            Totals t = new Totals();
            t.seconds = seconds;
            t.online = online;
            t.onlineShort = onlineShort;
            t.onlineShortAtFloor = onlineShortAtFloor;
            t.onlineWanted = onlineWanted;
            t.system = system;
            t.kubernetes = kubernetes;
            t.yarn = yarn;
            t.throttled = throttled;
            t.shortEpisodes = shortEpisodes;
            t.longestShortMillis = longestShortMillis;
            t.longestLateMillis = longestLateMillis;
            t.oomKills = oomKills;
            return t;
        }

        void reset() {
            seconds = online = onlineShort = onlineShortAtFloor = onlineWanted = system = kubernetes = yarn = throttled = 0;
            shortEpisodes = longestShortMillis = longestLateMillis = oomKills = 0;
        }
    }

    private static String fmt(double cores) {
        return Double.isInfinite(cores) ? "unlimited" : String.format(java.util.Locale.ROOT, "%.1f", cores);
    }
}
