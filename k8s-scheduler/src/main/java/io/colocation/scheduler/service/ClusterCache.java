package io.colocation.scheduler.service;

import io.colocation.kube.client.ApiErrors;

import io.colocation.api.InvalidInputException;
import io.colocation.kube.client.DecodingInformer;
import io.colocation.kube.client.TrimmingItemStore;
import io.colocation.kube.client.Handlers;
import io.colocation.model.pod.PodPhases;
import io.colocation.model.slo.NodeMetric;
import io.colocation.scheduler.framework.ClusterSnapshot;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.NodeOrder;
import io.colocation.scheduler.framework.NodeTable;
import io.colocation.scheduler.framework.Framework;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Snapshots;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's view of the cluster: informers on Nodes, Pods and NodeMetrics, plus the pods this scheduler has
 * assumed onto a node but the informer does not show bound yet, so two decisions in a row never count the same
 * free room twice (kube-scheduler's assume/forget cache). Kept incrementally, as kube-scheduler's cache is: each
 * informer event updates its node's {@link NodeInfo}, rebuilt at the next snapshot only for nodes that changed, so a
 * decision costs no re-reading of the whole cluster. A pod bound without a {@code PodScheduled} condition counts as
 * placed when this cache first saw it on its node.
 */
final class ClusterCache implements Framework.Assumption, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterCache.class);

    private final KubernetesClient client;
    private final Clock clock;
    static final String ELASTIC_QUOTA_API_VERSION = "scheduling.sigs.k8s.io/v1alpha1";
    private SharedIndexInformer<Node> nodes;
    private SharedIndexInformer<Pod> pods;
    private volatile boolean synced;
    private DecodingInformer<NodeMetric> metrics;
    /** The plugins' indexes over the pods, added to the informer when it starts. */
    private final Map<String, Function<Pod, List<String>>> podIndexers = new HashMap<>();
    /** The plugins that hear of every pod event, added before the informer starts. */
    private final List<Handle.PodListener> podListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** ElasticQuotas, watched when a plugin asked for them (before start); null otherwise or without their CRD. */
    private volatile boolean elasticQuotasWanted;
    private SharedIndexInformer<GenericKubernetesResource> elasticQuotas;
    private final java.util.concurrent.atomic.AtomicLong elasticQuotaVersion = new java.util.concurrent.atomic.AtomicLong();

    // Guarded by this: the cluster as the informers and the assumptions have it.
    private final Map<String, Node> nodeObjects = new HashMap<>();
    private final Map<String, DecodingInformer.Decoded<NodeMetric>> metricByNode = new HashMap<>();
    /** Pod key → the node it is on and what it holds there, bound (informer) or assumed. */
    private final Map<String, Placement> placements = new HashMap<>();
    private final Map<String, Map<String, PodInfo>> podsByNode = new HashMap<>();
    private final NodeTable table = new NodeTable();
    private final Set<String> dirty = new HashSet<>();
    /** Nodes rebuilt since {@link #changedNodes} was last asked. */
    private final Set<String> changedSinceAsked = new HashSet<>();
    /** The nodes in name order, as the last snapshot has them. */
    private NodeOrder ordered = NodeOrder.EMPTY;

    private record Placement(String node, PodInfo info, boolean assumed) {
    }

    ClusterCache(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /**
     * Starts the informers and waits until each listed once, all within {@code timeout}; {@code changed} hears of every
     * pod added or changed, {@code gone} of every pod deleted. An API server that does not list in time (down, or one
     * that accepts connections and never answers) is an error naming it and what it did not list.
     */
    void start(Consumer<Pod> changed, Consumer<Pod> gone, java.time.Duration timeout) throws java.util.concurrent.TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        // The images a node lists are not read here (no ImageLocality): dropped with the managed fields.
        nodes = client.nodes().runnableInformer(0).itemStore(TrimmingItemStore.trimming(n -> {
            if (n.getStatus() != null) {
                n.getStatus().setImages(null);
            }
        }));
        nodes.addEventHandler(Handlers.changedOrDeleted(this::nodeChanged, node -> nodeGone(node.getMetadata().getName())));
        await(nodes.start(), "Nodes", deadline, timeout);
        // Each NodeMetric is decoded on its own: one with a wrongly typed field is named and made unreadable, and
        // never stops the watch (a typed informer would stop for good, and a second replica could not start).
        metrics = DecodingInformer.all(client, NodeMetric.class).addListener(this::metricChanged);
        if (!awaitServed(metrics.start(), "NodeMetrics", deadline, timeout)) {
            metrics.close();
            metrics = null;
            LOG.warn("the NodeMetric CRD (slo.koordinator.sh) is not installed: LoadAwareScheduling sees no node load;"
                    + " apply conf/kubernetes/crds/ and restart the scheduler");
        }
        if (elasticQuotasWanted) {
            startElasticQuotas(deadline, timeout);
        }
        pods = client.pods().inAnyNamespace().runnableInformer(0).itemStore(TrimmingItemStore.trimmingMetadata());
        synchronized (podIndexers) {
            pods.addIndexers(podIndexers);
        }
        pods.addEventHandler(Handlers.changedOrDeleted(pod -> {
            podChanged(pod);
            podListeners.forEach(l -> l.changed(pod));
            changed.accept(pod);
        }, pod -> {
            unplace(Snapshots.key(pod));
            podListeners.forEach(l -> l.gone(pod));
            gone.accept(pod);
        }));
        await(pods.start(), "Pods", deadline, timeout);
        synced = true;
    }

    private void startElasticQuotas(long deadline, java.time.Duration timeout) throws java.util.concurrent.TimeoutException {
        elasticQuotas = client.genericKubernetesResources(ELASTIC_QUOTA_API_VERSION, "ElasticQuota").inAnyNamespace()
                .runnableInformer(0).itemStore(TrimmingItemStore.trimmingMetadata());
        elasticQuotas.addEventHandler(Handlers.changedOrDeleted(q -> elasticQuotaVersion.incrementAndGet(),
                q -> elasticQuotaVersion.incrementAndGet()));
        if (!awaitServed(elasticQuotas.start(), "ElasticQuotas", deadline, timeout)) {
            elasticQuotas.close();
            elasticQuotas = null;
            LOG.warn("the ElasticQuota CRD (scheduling.sigs.k8s.io) is not installed: every pod is in {}, unlimited;"
                    + " apply conf/kubernetes/crds/ and restart the scheduler", io.colocation.quota.QuotaDirectory.DEFAULT);
        }
    }

    /** Watches ElasticQuotas from {@link #start} on (asked while the profiles are built). */
    Handle.ElasticQuotas elasticQuotas() {
        elasticQuotasWanted = true;
        return new Handle.ElasticQuotas() {
            @Override
            public long version() {
                return elasticQuotaVersion.get();
            }

            @Override
            public java.util.Collection<GenericKubernetesResource> objects() {
                SharedIndexInformer<GenericKubernetesResource> i = elasticQuotas;
                return i == null ? List.of() : i.getStore().list();
            }
        };
    }

    void watchPods(Handle.PodListener listener) {
        podListeners.add(listener);
    }

    /** As {@link #await}, for a custom resource: false when the API server does not serve it (its CRD is not installed). */
    private boolean awaitServed(java.util.concurrent.CompletionStage<Void> started, String what, long deadline,
            java.time.Duration timeout) throws java.util.concurrent.TimeoutException {
        try {
            await(started, what, deadline, timeout);
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            return false;
        }
    }

    /** Waits for an informer's first list; its failure is thrown as it is (a KubernetesClientException says the code). */
    private void await(java.util.concurrent.CompletionStage<Void> started, String what, long deadline, java.time.Duration timeout)
            throws java.util.concurrent.TimeoutException {
        try {
            started.toCompletableFuture().get(Math.max(1, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            String unreachable = ApiErrors.unreachable(client);
            throw new java.util.concurrent.TimeoutException(unreachable != null ? "cannot reach the API server " + client.getMasterUrl()
                    + ": " + unreachable : "the API server " + client.getMasterUrl() + " did not list " + what + " within "
                    + timeout.toSeconds() + " s (kubernetes.startupTimeoutSeconds)");
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("cannot watch " + what + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.TimeoutException("interrupted while waiting for the first list of " + what);
        }
    }

    /** Whether every informer has listed once. */
    boolean synced() {
        return synced;
    }

    /** Which informers are not watching now (the API server went away); empty when all are. */
    List<String> notWatching() {
        List<String> down = new ArrayList<>();
        if (nodes == null || !nodes.isWatching()) {
            down.add("nodes");
        }
        if (pods == null || !pods.isWatching()) {
            down.add("pods");
        }
        if (metrics != null && !metrics.isWatching()) {
            down.add("nodemetrics");
        }
        return down;
    }

    /** NodeMetrics that exist but cannot be read, and why. */
    java.util.Map<String, String> unreadableMetrics() {
        return metrics == null ? Map.of() : metrics.unreadable();
    }

    private synchronized void nodeChanged(Node node) {
        nodeObjects.put(node.getMetadata().getName(), node);
        dirty.add(node.getMetadata().getName());
    }

    private synchronized void nodeGone(String name) {
        nodeObjects.remove(name);
        dirty.add(name);
    }

    private synchronized void metricChanged(String node, DecodingInformer.Decoded<NodeMetric> metric) {
        if (metric == null) {
            metricByNode.remove(node);
        } else {
            metricByNode.put(node, metric);
        }
        dirty.add(node);
    }

    /** A pod bound and not finished holds its requests on its node; any other pod holds nothing (unless assumed). */
    private synchronized void podChanged(Pod pod) {
        String key = Snapshots.key(pod);
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node == null || node.isEmpty()) {
            Placement p = placements.get(key);
            if (p != null && !p.assumed()) {
                unplace(key);
            }
            return;
        }
        if (PodPhases.ended(pod)) {
            unplace(key);
            return;
        }
        Placement previous = placements.get(key);
        Instant seen = previous != null && previous.node().equals(node) ? previous.info().placedAt() : clock.instant();
        try {
            place(key, new Placement(node, Snapshots.pod(pod, seen, "Pod " + key + ": "), false));
        } catch (InvalidInputException e) {
            unplace(key);
            LOG.warn("a pod the scheduler cannot read is left out of its node's load: {}", e.getMessage());
        }
    }

    private synchronized void place(String key, Placement placement) {
        unplace(key);
        placements.put(key, placement);
        podsByNode.computeIfAbsent(placement.node(), n -> new HashMap<>()).put(key, placement.info());
        dirty.add(placement.node());
    }

    private synchronized void unplace(String key) {
        Placement p = placements.remove(key);
        if (p != null) {
            Map<String, PodInfo> on = podsByNode.get(p.node());
            if (on != null) {
                on.remove(key);
                if (on.isEmpty()) {
                    podsByNode.remove(p.node());
                }
            }
            dirty.add(p.node());
        }
    }

    /**
     * Holds the pod's requests on the node until the informer shows it bound (or {@link #forget}). The pending pod's
     * parsed info is reused as it is: no plugin reads an assigned pod's node name from its object.
     */
    @Override
    public synchronized void assume(PodInfo pod, String node) {
        place(pod.key(), new Placement(node, pod.withPlacedAt(clock.instant()), true));
    }

    @Override
    public void forget(PodInfo pod) {
        forget(pod.pod());
    }

    /** Releases an assumption that did not become a binding; a pod the informer shows bound meanwhile stays. */
    synchronized void forget(Pod pod) {
        String key = Snapshots.key(pod);
        Placement p = placements.get(key);
        if (p != null && p.assumed()) {
            unplace(key);
        }
    }

    synchronized boolean assumed(String key) {
        Placement p = placements.get(key);
        return p != null && p.assumed();
    }

    /** The pod as the informer has it now; null when gone. */
    Pod current(String key) {
        String[] nsName = key.split("/", 2);
        return pods.getIndexer().getByKey(nsName[0] + "/" + nsName[1]);
    }

    /** A PodGroup ({@code scheduling.sigs.k8s.io/v1alpha1}); null when absent or when the CRD is not installed. */
    GenericKubernetesResource podGroup(String namespace, String name) {
        try {
            return client.genericKubernetesResources("scheduling.sigs.k8s.io/v1alpha1", "PodGroup").inNamespace(namespace)
                    .withName(name).get();
        } catch (KubernetesClientException e) {
            return null;
        }
    }

    /** Registers an index over the pods (before {@link #start}) and returns its lookup. */
    Handle.PodIndex index(String name, Function<Pod, String> keyOf) {
        synchronized (podIndexers) {
            if (pods != null) {
                throw new IllegalStateException("pod index " + name + " registered after the informer started");
            }
            podIndexers.put(name, pod -> {
                String key = keyOf.apply(pod);
                return key == null ? List.of() : List.of(key);
            });
        }
        return key -> pods.getIndexer().byIndex(name, key);
    }

    /** Every pod the informer has. */
    java.util.Collection<Pod> pods() {
        return pods.getStore().list();
    }

    /**
     * Nodes in name order with their bound and assumed pods and their NodeMetrics; an unreadable node is skipped.
     * Only nodes that changed since the last snapshot are rebuilt.
     */
    synchronized ClusterSnapshot snapshot(Instant now) {
        if (!dirty.isEmpty()) {
            // A decision changes one node: the new order is the old one with that node replaced, sharing all but its chunk.
            ordered = table.rebuild(dirty, this::build);
            changedSinceAsked.addAll(dirty);
            dirty.clear();
        }
        return new ClusterSnapshot(ordered, now);
    }

    /**
     * The nodes that changed (their Node, a pod on them or gone from them, their NodeMetric, an assumption) since the
     * last call, as they are now; a node that went is not among them.
     */
    synchronized List<NodeInfo> changedNodes(Instant now) {
        snapshot(now);
        List<NodeInfo> out = new ArrayList<>(changedSinceAsked.size());
        for (String name : changedSinceAsked) {
            NodeInfo info = table.get(name);
            if (info != null) {
                out.add(info);
            }
        }
        changedSinceAsked.clear();
        return out;
    }

    /** The node with its pods and metric as the cache has them now, replacing {@code was}; null when gone or unreadable. */
    private NodeInfo build(String name, NodeInfo was) {
        Node n = nodeObjects.get(name);
        if (n == null) {
            return null;
        }
        List<PodInfo> podsOnNode = new ArrayList<>(podsByNode.getOrDefault(name, Map.of()).values());
        podsOnNode.sort(Comparator.comparing(PodInfo::key));
        try {
            DecodingInformer.Decoded<NodeMetric> metric = metricByNode.get(name);
            return Snapshots.node(n, podsOnNode, metric == null ? null : metric.value(), metric == null ? null : metric.error(),
                    "Node " + name + ": ", was);
        } catch (InvalidInputException e) {
            LOG.warn("a node the scheduler cannot read is not a candidate: {}", e.getMessage());
            return null;
        }
    }

    @Override
    public void close() {
        for (SharedIndexInformer<?> i : new SharedIndexInformer<?>[] {pods, nodes, elasticQuotas}) {
            if (i != null) {
                i.close();
            }
        }
        if (metrics != null) {
            metrics.close();
        }
    }
}
