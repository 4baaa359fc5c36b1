package io.colocation.simulator.fast;

import io.colocation.api.InvalidInputException;
import io.colocation.scheduler.config.KubeSchedulerConfiguration;
import io.colocation.scheduler.framework.ClusterSnapshot;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.Framework;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.NodeOrder;
import io.colocation.scheduler.framework.NodeTable;
import io.colocation.scheduler.framework.NodeSearch;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Snapshots;
import io.colocation.scheduler.framework.WaitingPods;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The k8s-scheduler in the fast engine: its shipped profile ({@link KubeSchedulerConfiguration#defaults}: NodeResourcesFit,
 * NodeAffinity, TaintToleration, LoadAwareScheduling, Coscheduling) and its {@link Framework}, the running scheduler's
 * node search included, on a snapshot this cache keeps as the scheduler's own does (a node rebuilt when its Node, pods
 * or NodeMetric changed). Binding is the engine's: a pod that passes Permit is bound at once. Each cycle tries the pending
 * pods in creation order (they share one priority class); a pod no node could take waits for a change in the cluster or
 * the flush, as kube-scheduler's unschedulable queue makes it, and within one cycle a pod asking at least as much as one
 * that just found no node is not tried (the filters judge the node, not the pod's other fields).
 */
final class FastScheduler implements Handle, Framework.Assumption, WaitingPods {
    private final FastKubernetes kube;
    private final Clock clock;
    private final Framework framework;
    private final Framework.NodeSelector selector;
    private final BiConsumer<Pod, String> bound;
    private final long flushMillis;
    /** The nodes, and in name order as the last snapshot has them. */
    private final NodeTable nodes = new NodeTable();
    private NodeOrder ordered = NodeOrder.EMPTY;
    private final java.util.Set<String> dirty = new java.util.HashSet<>();
    /** Bound pods as parsed when first seen on their node (their placement time kept). */
    private final Map<String, PodInfo> boundInfos = new HashMap<>();
    /** Pods assumed onto a node and not bound yet: each pod's node, and each node's pods. */
    private final Map<String, String> assumedOn = new HashMap<>();
    private final Map<String, Map<String, PodInfo>> assumedByNode = new HashMap<>();
    private final Map<String, Entry> waiting = new LinkedHashMap<>();
    /** Pods no node could take, since when (simulated ms). */
    private final Map<String, Long> unschedulable = new HashMap<>();
    private final Map<String, Asked> asked = new HashMap<>();
    private long attempts;

    private record Entry(PodInfo pod, CycleState state, String node, long deadlineMillis) {
    }

    /** A pending pod's batch-cpu and batch-memory as read from that Pod object: read once, not every cycle. */
    private record Asked(Pod pod, long[] asks) {
    }

    /** @param bound told each pod bound and its node (the kubelet starts it) */
    FastScheduler(FastKubernetes kube, Clock clock, long flushMillis, BiConsumer<Pod, String> bound) {
        this.kube = kube;
        this.clock = clock;
        this.flushMillis = flushMillis;
        this.bound = bound;
        this.framework = new Framework(KubeSchedulerConfiguration.defaults(this).profiles().get(0));
        this.selector = framework.searching(new NodeSearch());
    }

    long attempts() {
        return attempts;
    }


    /** One round of the scheduling loop over the pending pods. */
    void cycle() {
        long now = clock.millis();
        expireWaits(now);
        Set<String> changes = kube.takeSchedulerChanges();
        boolean changed = !changes.isEmpty();
        dirty.addAll(changes);
        List<long[]> noNodeFor = new ArrayList<>();
        Map<String, Pod> unbound = kube.unboundPodsByKey();
        if (asked.size() > unbound.size()) {
            asked.keySet().retainAll(unbound.keySet());
        }
        for (Map.Entry<String, Pod> pending : new ArrayList<>(unbound.entrySet())) {
            String key = pending.getKey();
            Pod pod = pending.getValue();
            // a gang's member may have been bound by its last member's Permit earlier in this cycle
            if (assumedOn.containsKey(key) || waiting.containsKey(key) || !unbound.containsKey(key)) {
                continue;
            }
            Long since = unschedulable.get(key);
            if (since != null && !changed && now - since < flushMillis) {
                continue;
            }
            Asked was = asked.get(key);
            if (was == null || was.pod() != pod) {
                was = new Asked(pod, asks(pod, key));
                asked.put(key, was);
            }
            long[] asks = was.asks();
            if (dominated(asks, noNodeFor)) {
                continue;
            }
            if (!attempt(pod, key, now)) {
                noNodeFor.add(asks);
            }
        }
    }

    /** Whether a pod asking {@code asks} asks at least what a pod that found no node this cycle asked. */
    private static boolean dominated(long[] asks, List<long[]> noNodeFor) {
        for (long[] failed : noNodeFor) {
            if (asks[0] >= failed[0] && asks[1] >= failed[1]) {
                return true;
            }
        }
        return false;
    }

    /** The pod's batch-cpu and batch-memory as the product reads them; an unreadable pod asks nothing (its attempt says why). */
    private static long[] asks(Pod pod, String key) {
        try {
            io.colocation.model.Resources r = io.colocation.model.pod.PodRequests.batch(pod, "Pod " + key + ": ");
            return new long[] {r.cpuMilli(), r.memoryBytes()};
        } catch (InvalidInputException e) {
            return new long[] {0, 0};
        }
    }

    /** One attempt; false when no node could take the pod. */
    private boolean attempt(Pod pod, String key, long now) {
        attempts++;
        PodInfo info;
        try {
            info = Snapshots.pod(pod, Instant.ofEpochMilli(now), "Pod " + key + ": ");
        } catch (InvalidInputException e) {
            unschedulable.put(key, now);
            return true;
        }
        CycleState state = new CycleState(snapshot(Instant.ofEpochMilli(now)));
        Framework.CycleResult cycle = framework.schedulingCycle(state, info, selector, this);
        if (!cycle.reserved()) {
            unschedulable.put(key, now);
            return cycle.rejectedAt() != Framework.Point.FILTER;
        }
        unschedulable.remove(key);
        Framework.PermitVerdict permit = cycle.permit();
        if (permit.waiting()) {
            waiting.put(key, new Entry(info, state, cycle.node(), now + permit.timeout().toMillis()));
            return true;
        }
        bind(info, cycle.node());
        return true;
    }

    private void bind(PodInfo info, String node) {
        String key = info.key();
        unassume(key);
        dirty.add(node);
        kube.bind(key, node);
        Pod pod = kube.pod(node, key);
        if (pod != null) {
            boundInfos.put(key, info.withPlacedAt(clock.instant()));
            bound.accept(pod, node);
        }
    }

    private void expireWaits(long now) {
        for (Entry e : new ArrayList<>(waiting.values())) {
            if (e.deadlineMillis() <= now) {
                reject(e.pod().key(), "waited at Permit past its timeout");
            }
        }
    }

    /** A bound pod left its node: its parsed info goes. */
    void gone(String key) {
        boundInfos.remove(key);
        unschedulable.remove(key);
    }

    /** The nodes in name order with their bound and assumed pods and NodeMetrics; changed nodes rebuilt. */
    private ClusterSnapshot snapshot(Instant now) {
        dirty.addAll(kube.takeSchedulerChanges());
        if (!dirty.isEmpty()) {
            ordered = nodes.rebuild(dirty, (name, was) -> build(name, was, now));
            dirty.clear();
        }
        return new ClusterSnapshot(ordered, now);
    }

    private NodeInfo build(String name, NodeInfo was, Instant now) {
        Node node = kube.node(name);
        if (node == null) {
            return null;
        }
        List<PodInfo> pods = new ArrayList<>();
        for (Pod p : kube.podsOn(name)) {
            String key = FastKubernetes.key(p);
            PodInfo info = boundInfos.get(key);
            if (info == null) {
                try {
                    info = Snapshots.pod(p, now, "Pod " + key + ": ");
                } catch (InvalidInputException e) {
                    continue;
                }
                boundInfos.put(key, info);
            }
            pods.add(info);
        }
        pods.addAll(assumedByNode.getOrDefault(name, Map.of()).values());
        pods.sort(java.util.Comparator.comparing(PodInfo::key));
        try {
            return Snapshots.node(node, pods, kube.metric(name), null, "Node " + name + ": ", was);
        } catch (InvalidInputException e) {
            return null;
        }
    }

    // The assumption (the scheduler's cache)

    @Override
    public void assume(PodInfo pod, String node) {
        assumedOn.put(pod.key(), node);
        assumedByNode.computeIfAbsent(node, n -> new HashMap<>()).put(pod.key(), pod.withPlacedAt(clock.instant()));
        dirty.add(node);
    }

    @Override
    public void forget(PodInfo pod) {
        String node = unassume(pod.key());
        if (node != null) {
            dirty.add(node);
        }
    }

    /** The pod is no longer assumed; returns the node it was assumed onto (null: none). */
    private String unassume(String key) {
        String node = assumedOn.remove(key);
        if (node != null) {
            Map<String, PodInfo> on = assumedByNode.get(node);
            on.remove(key);
            if (on.isEmpty()) {
                assumedByNode.remove(node);
            }
        }
        return node;
    }

    // The plugins' handle

    @Override
    public KubernetesClient client() {
        throw new UnsupportedOperationException("the fast engine binds pods itself");
    }

    @Override
    public boolean writeToken() {
        return true;
    }

    @Override
    public PodIndex podIndex(String name, Function<Pod, String> keyOf) {
        return kube.index(name, keyOf);
    }

    @Override
    public boolean assumed(String podKey) {
        return assumedOn.containsKey(podKey);
    }

    @Override
    public GenericKubernetesResource podGroup(String namespace, String name) {
        return null; // gangs by annotation, as the workload makes them; no PodGroup objects
    }

    @Override
    public WaitingPods waitingPods() {
        return this;
    }

    // The fast engine runs the shipped profile, which enables no ElasticQuota (quotas are not simulated yet).
    @Override
    public void watchPods(PodListener listener) {
        throw new UnsupportedOperationException("the fast engine models no ElasticQuota; run it with --engine real");
    }

    @Override
    public ElasticQuotas elasticQuotas() {
        throw new UnsupportedOperationException("the fast engine models no ElasticQuota; run it with --engine real");
    }

    // The pods waiting at Permit

    @Override
    public List<Waiting> list() {
        List<Waiting> out = new ArrayList<>(waiting.size());
        waiting.values().forEach(e -> out.add(new Waiting(e.pod(), e.node())));
        return out;
    }

    @Override
    public boolean allow(String podKey) {
        Entry e = waiting.remove(podKey);
        if (e == null) {
            return false;
        }
        bind(e.pod(), e.node());
        return true;
    }

    @Override
    public boolean reject(String podKey, String reason) {
        Entry e = waiting.remove(podKey);
        if (e == null) {
            return false;
        }
        framework.unreserve(e.state(), e.pod(), e.node(), this);
        unschedulable.put(podKey, clock.millis());
        return true;
    }
}
