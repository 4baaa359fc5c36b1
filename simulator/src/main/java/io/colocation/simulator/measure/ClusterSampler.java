package io.colocation.simulator.measure;

import io.colocation.api.KoordinatorKeys;
import io.colocation.api.ResourceNames;
import io.colocation.model.Resources;
import io.colocation.model.node.NodeAnnotations;
import io.colocation.model.pod.PodPhases;
import io.colocation.simulator.model.host.SimulatedHost;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the whole cluster every sample: what each host's kernel gave whom since the last sample (online pods, the
 * system, Kubernetes batch pods, YARN containers, and what the BE tier was throttled or online work was short of), the
 * memory in use, and each node's ledger as the parts enforce it: the Batch the broker published
 * ({@code node.koordinator.sh/originExtendedAllocatable}), the Kubernetes grant in the node's status, YARN's grant as
 * published and as the ResourceManager's scheduler applies it, and what each side has allocated. A sample where a
 * node's two published grants together leave the schedulers more room than its published Batch leaves is an overcommit
 * sample ({@link #overcommit}): the broker decided wrong. Where only the scheduler's applied capacity leaves that room,
 * a published YARN shrink is still on its way to the scheduler: counted apart, with its longest wait in wall time.
 */
public final class ClusterSampler {

    /** The cluster at one sample: cores averaged over the interval, memory now, Batch as published. */
    public record Sample(long timeMillis, double seconds, double capacityCores, double online, double system, double kubernetes, double yarn,
            double throttled, double onlineShort, double memoryFraction, double originCores, double kubernetesGrantCores,
            double yarnGrantCores, double kubernetesAllocatedCores, double yarnAllocatedCores, int overcommitNodes,
            double kubernetesPendingCores, double yarnPendingCores) {
        public double totalCores() {
            return online + system + kubernetes + yarn;
        }
    }

    private final SampledCluster cluster;
    private final java.util.concurrent.ExecutorService lookups = java.util.concurrent.Executors.newSingleThreadExecutor(
            io.colocation.helpers.concurrent.Daemons.named("sampler-lookups"));
    private final List<Sample> samples = new ArrayList<>();
    private long nodeSamples;
    private long overcommitSamples;
    private double throttledCoreSeconds;
    private double onlineShortCoreSeconds;
    private double onlineWantedCoreSeconds;
    private long longestShortMillis;
    private long shortEpisodes;
    private double onlineShortAtFloorCoreSeconds;
    private long longestLateMillis;
    private long oomKills;
    private final List<String> overcommitExamples = new ArrayList<>();
    /** Nodes whose grants left more room than their Batch at the last sample. */
    private final java.util.Set<String> overAtLastSample = new java.util.HashSet<>();
    /** Nodes whose RM still applies more than a published shrink left, since when (wall nanoseconds). */
    private final Map<String, Long> shrinkPendingSince = new java.util.HashMap<>();
    private long shrinkPendingSamples;
    private long longestShrinkPendingMillis;

    public ClusterSampler(SampledCluster cluster) {
        this.cluster = cluster;
    }

    /** One sample at simulated {@code nowMillis}. */
    public synchronized Sample sample(long nowMillis) {
        double capacity = 0;
        double seconds = 0;
        double online = 0;
        double system = 0;
        double k8s = 0;
        double y = 0;
        double throttled = 0;
        double shortCs = 0;
        double memoryUsed = 0;
        double memory = 0;
        double origin = 0;
        double kGrant = 0;
        double yGrant = 0;
        double kAllocated = 0;
        double yAllocated = 0;
        int overcommit = 0;
        long wallNanos = System.nanoTime();
        List<SimulatedHost> hosts = cluster.hosts();
        for (SimulatedHost h : hosts) {
            SimulatedHost.Totals t = h.drain();
            capacity += h.cores();
            seconds += t.seconds;
            online += t.online;
            system += t.system;
            k8s += t.kubernetes;
            y += t.yarn;
            throttled += t.throttled;
            shortCs += t.onlineShort;
            onlineWantedCoreSeconds += t.onlineWanted;
            longestShortMillis = Math.max(longestShortMillis, t.longestShortMillis);
            shortEpisodes += t.shortEpisodes;
            onlineShortAtFloorCoreSeconds += t.onlineShortAtFloor;
            longestLateMillis = Math.max(longestLateMillis, t.longestLateMillis);
            oomKills += t.oomKills;
            long[] mem = h.memoryInUse();
            memoryUsed += mem[0] + mem[1] + mem[2] + mem[3];
            memory += h.memory();
            Node node = cluster.node(h.name());
            long originMilli = originOf(node);
            long kGrantMilli = allocatable(node, ResourceNames.BATCH_CPU);
            YarnNodeFigures f = cluster.yarn(h.name());
            long kAllocatedMilli = kubernetesAllocated(cluster.podsOn(h.name()));
            origin += Math.max(0, originMilli) / 1000.0; // -1: nothing published (colocation off)
            kGrant += kGrantMilli / 1000.0;
            yGrant += f.capacityMilli() / 1000.0;
            kAllocated += kAllocatedMilli / 1000.0;
            yAllocated += f.allocatedMilli() / 1000.0;
            nodeSamples++;
            Verdict verdict = judge(originMilli, kGrantMilli, kAllocatedMilli, f);
            String over = verdict.overcommit();
            shrinkPending(h.name(), verdict.shrinkPending() != null, wallNanos);
            if (over != null && !overAtLastSample.add(h.name())) {
                overcommit++;
                overcommitSamples++;
                if (overcommitExamples.size() < 20) {
                    String example = h.name() + " at " + java.time.Instant.ofEpochMilli(nowMillis) + ": " + over;
                    overcommitExamples.add(example);
                    int at = overcommitExamples.size() - 1;
                    // the broker's view of the node, fetched aside: the sample does not wait for it
                    lookups.execute(() -> {
                        String ledger = cluster.brokerView(h.name());
                        synchronized (this) {
                            overcommitExamples.set(at, example + "; the broker's ledger: " + ledger);
                        }
                    });
                }
            } else if (over == null) {
                overAtLastSample.remove(h.name());
            }
        }
        throttledCoreSeconds += throttled;
        onlineShortCoreSeconds += shortCs;
        // each host's counters cover the time since it was last drained; their mean is the interval this sample measures
        double dt = seconds > 0 ? seconds / hosts.size() : 1;
        Sample s = new Sample(nowMillis, dt, capacity, online / dt, system / dt, k8s / dt, y / dt, throttled / dt, shortCs / dt,
                memory > 0 ? memoryUsed / memory : 0, origin, kGrant, yGrant, kAllocated, yAllocated, overcommit,
                cluster.kubernetesPendingCores(), cluster.yarnPendingVcores());
        samples.add(s);
        return s;
    }

    /** One node at one sample: why the broker's grants overcommit it, or why a YARN shrink it needs is still on its way. */
    record Verdict(String overcommit, String shrinkPending) {
    }

    /**
     * Judges the broker's decision by YARN's published grant (the scheduler's capacity until the first is published) and,
     * where that holds, the scheduler's way to it: a published shrink it has not applied yet while its room is needed.
     */
    static Verdict judge(long origin, long kGrant, long kAllocated, YarnNodeFigures yarn) {
        long decided = yarn.publishedMilli() < 0 ? yarn.capacityMilli() : yarn.publishedMilli();
        String over = overcommit(origin, kGrant, kAllocated, decided, yarn.allocatedMilli());
        if (over != null || yarn.capacityMilli() <= decided) {
            return new Verdict(over, null);
        }
        return new Verdict(null, overcommit(origin, kGrant, kAllocated, yarn.capacityMilli(), yarn.allocatedMilli()));
    }

    /**
     * A published YARN shrink the RM's scheduler has not applied yet while the room it takes away is needed: the way
     * from the broker's write through the plugin and the RM's two event queues, in wall time (a simulation compresses
     * simulated time, not the RM's event processing).
     */
    private void shrinkPending(String node, boolean pending, long wallNanos) {
        if (!pending) {
            shrinkPendingSince.remove(node);
            return;
        }
        shrinkPendingSamples++;
        long since = shrinkPendingSince.computeIfAbsent(node, n -> wallNanos);
        longestShrinkPendingMillis = Math.max(longestShrinkPendingMillis, (wallNanos - since) / 1_000_000);
    }

    /**
     * Why the node's two grants together leave more room than its Batch does, or null when they do not: the room
     * a scheduler could still fill is {@code max(grant, allocated) - allocated} on each side; what Batch leaves is
     * {@code max(0, origin - allocated on both sides)}. A grant held at what its side already uses (origin fell below
     * use) leaves no room and is no overcommit. The caller counts a node only when this holds at two samples in a
     * row: the two sides and the origin are three writes, milliseconds apart, that a sample can fall between.
     */
    static String overcommit(long origin, long kGrant, long kAllocated, long yGrant, long yAllocated) {
        if (origin < 0) {
            return null;
        }
        long room = Math.max(0, kGrant - kAllocated) + Math.max(0, yGrant - yAllocated);
        long left = Math.max(0, origin - kAllocated - yAllocated);
        return room <= left ? null : "room Kubernetes " + Math.max(0, kGrant - kAllocated) + "m + YARN " + Math.max(0, yGrant - yAllocated)
                + "m > Batch left " + left + "m (origin " + origin + "m, allocated " + kAllocated + "m + " + yAllocated + "m)";
    }

    /** The node's published Batch CPU (milli-cores); -1 before the broker published any. */
    public static long originOf(Node node) {
        Resources origin = node == null || node.getMetadata().getAnnotations() == null ? null
                : NodeAnnotations.originBatch(node.getMetadata().getAnnotations().get(KoordinatorKeys.ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE));
        return origin == null ? -1 : origin.cpuMilli();
    }

    private static long allocatable(Node node, String resource) {
        if (node == null || node.getStatus() == null || node.getStatus().getAllocatable() == null) {
            return 0;
        }
        Quantity q = node.getStatus().getAllocatable().get(resource);
        return q == null ? 0 : q.getNumericalAmount().longValue();
    }

    /** Batch CPU requested by the node's pods that hold it (not finished). */
    private static long kubernetesAllocated(List<Pod> pods) {
        long sum = 0;
        for (Pod p : pods) {
            if (PodPhases.ended(p)) {
                continue;
            }
            for (var c : p.getSpec().getContainers()) {
                Map<String, Quantity> r = c.getResources() == null ? null : c.getResources().getRequests();
                Quantity q = r == null ? null : r.get(ResourceNames.BATCH_CPU);
                sum += q == null ? 0 : q.getNumericalAmount().longValue();
            }
        }
        return sum;
    }

    public synchronized List<Sample> samples() {
        return new ArrayList<>(samples);
    }

    public synchronized long nodeSamples() {
        return nodeSamples;
    }

    public synchronized long overcommitSamples() {
        return overcommitSamples;
    }

    /** Node samples where a published YARN shrink was still on its way to the RM's scheduler and its room was needed. */
    public synchronized long shrinkPendingSamples() {
        return shrinkPendingSamples;
    }

    /** The longest such wait, from the first sample that saw it to the last (wall milliseconds). */
    public synchronized long longestShrinkPendingMillis() {
        return longestShrinkPendingMillis;
    }

    public synchronized List<String> overcommitExamples() {
        return new ArrayList<>(overcommitExamples);
    }

    public synchronized double throttledCoreSeconds() {
        return throttledCoreSeconds;
    }

    public synchronized double onlineShortCoreSeconds() {
        return onlineShortCoreSeconds;
    }

    public synchronized double onlineWantedCoreSeconds() {
        return onlineWantedCoreSeconds;
    }

    public synchronized long longestShortMillis() {
        return longestShortMillis;
    }

    /** Online short while the BE tier was at Koordinator's floor: more than any suppression can give (core-seconds). */
    public synchronized double onlineShortAtFloorCoreSeconds() {
        return onlineShortAtFloorCoreSeconds;
    }

    /** The longest online shortage while the BE tier was above its floor: how late the suppression came (simulated ms). */
    public synchronized long longestLateMillis() {
        return longestLateMillis;
    }

    public synchronized long shortEpisodes() {
        return shortEpisodes;
    }

    public synchronized long oomKills() {
        return oomKills;
    }
}
