package io.colocation.simulator.fast;

import io.colocation.api.InvalidInputException;
import io.colocation.broker.calculation.NodeMetricInputs;
import io.colocation.broker.kube.BatchPublication;
import io.colocation.broker.kube.ClusterInputs;
import io.colocation.broker.kube.ClusterView;
import io.colocation.broker.kube.KubernetesSide;
import io.colocation.broker.kube.NodeStatusPublisher;
import io.colocation.koordlet.kube.NodeView;
import io.colocation.koordlet.kube.NodeWatches;
import io.colocation.kube.client.DecodingInformer;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.config.NodeStrategyResolver;
import io.colocation.model.config.SloConfigKey;
import io.colocation.model.config.SloStrategies;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.node.YarnReleaseResource;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeMetricSpecs;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fast engine's API server: Nodes, pods, NodeMetrics and NodeSLOs in memory, read by the broker's pass as its
 * informers would hold them ({@link ClusterInputs}), written by the broker as the API server would take its writes
 * ({@link KubernetesSide}, through {@link NodeStatusPublisher}'s own rendering), and read by each koordlet as its watches
 * would ({@link #view}). Every write a real part would send is counted by kind, as kube-apiserver's
 * {@code apiserver_request_total} names it. The engine's events run one at a time; within one, the koordlets of a step
 * read it in parallel (their writes wait for the step's end), and the broker's pass reads and writes it from its
 * threads, a node on one thread: what those share (the caches of pod lists and parsed NodeMetrics, resource versions,
 * the changed nodes, the request counts, the Node objects) is safe to use from several threads, and what they write
 * does not depend on their order.
 */
final class FastKubernetes implements ClusterInputs, KubernetesSide {
    /** Nodes by name, and their names in the order they registered (none leaves). */
    private final Map<String, Node> nodes = new ConcurrentHashMap<>();
    private final List<String> nodeNames = new ArrayList<>();
    private final Map<String, Map<String, Pod>> podsByNode = new HashMap<>();
    private final Map<String, List<Pod>> podLists = new ConcurrentHashMap<>();
    private final Map<String, Pod> unbound = new LinkedHashMap<>();
    private final Map<String, NodeMetric> metrics = new HashMap<>();
    private final Map<String, YarnReleaseResource> releases = new ConcurrentHashMap<>();
    private final Map<String, ClusterView.ParsedMetric> parsed = new ConcurrentHashMap<>();
    private final Map<String, NodeSLO> slos = new HashMap<>();
    private final ColocationConfig colocation;
    private final Map<SloConfigKey, SloStrategies> sloKeys;
    private final Set<String> changedNodes = new HashSet<>();
    private boolean everythingChanged = true;
    private final AtomicLong resourceVersion = new AtomicLong();
    private final Map<String, Long> requests = new TreeMap<>();
    /** The scheduler's indexes over every pod (kube-scheduler's plugins add indexers to its informer). */
    private final Map<String, java.util.function.Function<Pod, String>> indexKeys = new LinkedHashMap<>();
    private final Map<String, Map<String, Map<String, Pod>>> indexes = new HashMap<>();
    /** Nodes whose Node, pods or NodeMetric changed since the scheduler last asked. */
    private final Set<String> schedulerChanged = new HashSet<>();

    FastKubernetes(ColocationConfig colocation, Map<SloConfigKey, SloStrategies> sloKeys) {
        this.colocation = colocation;
        this.sloKeys = sloKeys;
    }

    /**
     * A node registered by its kubelet, Ready; with {@code controllers} (the broker runs) its NodeMetric and NodeSLO as the
     * broker's controllers render them.
     */
    void register(String name, int cores, long memory, int pods, boolean controllers) {
        Map<String, Quantity> capacity = Map.of("cpu", new Quantity(Integer.toString(cores)), "memory", new Quantity(Long.toString(memory)),
                "pods", new Quantity(Integer.toString(pods)));
        Node node = new NodeBuilder().withNewMetadata().withName(name).withResourceVersion(nextVersion())
                .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux").endMetadata().withNewSpec().endSpec()
                .withNewStatus().withCapacity(capacity).withAllocatable(capacity).addNewCondition().withType("Ready").withStatus("True")
                .endCondition().endStatus().build();
        nodes.put(name, node);
        nodeNames.add(name);
        count("POST nodes", 1);
        count("PUT nodes/status", 1);
        nodeChanged(name);
        if (!controllers) {
            return;
        }
        NodeMetric metric = new NodeMetric();
        metric.setMetadata(new ObjectMetaBuilder().withName(name).withResourceVersion(nextVersion()).withGeneration(1L).build());
        metric.setSpec(NodeMetricSpecs.forStrategy(NodeStrategyResolver.resolve(colocation, node.getMetadata().getLabels(),
                node.getMetadata().getAnnotations()).strategy()));
        metrics.put(name, metric);
        count("POST nodemetrics", 1);
        NodeSLO slo = new NodeSLO();
        slo.setMetadata(new ObjectMetaBuilder().withName(name).withResourceVersion(nextVersion()).withGeneration(1L).build());
        slo.setSpec(io.colocation.broker.slo.NodeSloSpecs.render(sloKeys, node.getMetadata().getLabels(), node.getMetadata().getAnnotations(),
                null));
        slos.put(name, slo);
        count("POST nodeslos", 1);
    }

    private String nextVersion() {
        return Long.toString(resourceVersion.incrementAndGet());
    }

    /** A request a real part would send, by kind ({@code VERB resource[/subresource]}). */
    synchronized void count(String kind, long n) {
        requests.merge(kind, n, Long::sum);
    }

    /** The requests counted so far, by kind: a copy, sorted. */
    synchronized Map<String, Long> requests() {
        return new TreeMap<>(requests);
    }

    // Pods

    /** An index over every pod by {@code keyOf} (null: not indexed); the answer finds one key's pods as they are now. */
    io.colocation.scheduler.framework.Handle.PodIndex index(String name, java.util.function.Function<Pod, String> keyOf) {
        indexKeys.put(name, keyOf);
        Map<String, Map<String, Pod>> index = indexes.computeIfAbsent(name, n -> new HashMap<>());
        return key -> List.copyOf(index.getOrDefault(key, Map.of()).values());
    }

    private void indexed(Pod pod, boolean add) {
        indexKeys.forEach((name, keyOf) -> {
            String k = keyOf.apply(pod);
            if (k == null) {
                return;
            }
            Map<String, Map<String, Pod>> index = indexes.get(name);
            if (add) {
                index.computeIfAbsent(k, x -> new LinkedHashMap<>()).put(key(pod), pod);
            } else {
                Map<String, Pod> of = index.get(k);
                if (of != null) {
                    of.remove(key(pod));
                    if (of.isEmpty()) {
                        index.remove(k);
                    }
                }
            }
        });
    }

    /** The nodes changed since the last call (the scheduler's cache rebuilds those). */
    synchronized Set<String> takeSchedulerChanges() {
        Set<String> out = new HashSet<>(schedulerChanged);
        schedulerChanged.clear();
        return out;
    }

    /** A pod created without a node (a batch pod for the scheduler). */
    void createUnbound(Pod pod) {
        pod.getMetadata().setResourceVersion(nextVersion());
        unbound.put(key(pod), pod);
        indexed(pod, true);
        everythingChanged = true;
        count("POST pods", 1);
    }

    /** A pod created on its node (an online pod, as the default scheduler would have bound it). */
    void createBound(Pod pod) {
        pod.getMetadata().setResourceVersion(nextVersion());
        put(pod);
        indexed(pod, true);
        count("POST pods", 1);
    }

    /** The scheduler's binding; the kubelet then reports the pod Running ({@link #running}). */
    void bind(String key, String node) {
        Pod pod = unbound.remove(key);
        if (pod == null) {
            return;
        }
        pod.getSpec().setNodeName(node);
        everythingChanged = true;
        put(pod);
        count("POST pods/binding", 1);
    }

    /** The kubelet started the pod: Running, with the QoS class it computes. */
    void running(Pod pod, String startTime) {
        pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running").withStartTime(startTime)
                .withQosClass(io.colocation.model.pod.PodClassifier.kubeQoSClass(pod)).build());
        pod.getMetadata().setResourceVersion(nextVersion());
        changed(pod.getSpec().getNodeName());
        count("PATCH pods/status", 1);
    }

    /** A pod deleted (finished and cleaned up, evicted, killed): gone from its node or from the queue. */
    void delete(String key, String node) {
        if (node == null) {
            Pod gone = unbound.remove(key);
            if (gone != null) {
                indexed(gone, false);
                everythingChanged = true;
                count("DELETE pods", 1);
            }
            return;
        }
        Map<String, Pod> on = podsByNode.get(node);
        Pod gone = on == null ? null : on.remove(key);
        if (gone != null) {
            indexed(gone, false);
            changed(node);
            count("DELETE pods", 1);
        }
    }

    private void put(Pod pod) {
        String node = pod.getSpec().getNodeName();
        podsByNode.computeIfAbsent(node, n -> new LinkedHashMap<>()).put(key(pod), pod);
        changed(node);
    }

    private void changed(String node) {
        podLists.remove(node);
        nodeChanged(node);
    }

    /** The node or something of it changed: the broker's and the scheduler's next look at it. */
    private synchronized void nodeChanged(String node) {
        changedNodes.add(node);
        schedulerChanged.add(node);
    }

    static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    Pod pod(String node, String key) {
        Map<String, Pod> on = podsByNode.get(node);
        return on == null ? null : on.get(key);
    }

    Map<String, Pod> unboundPodsByKey() {
        return unbound;
    }

    // Nodes

    Node node(String name) {
        return nodes.get(name);
    }

    /** The Node as written now: a new resource version, and the broker and the scheduler look at it again. */
    private void replace(String name, Node written) {
        written.getMetadata().setResourceVersion(nextVersion());
        nodes.put(name, written);
        nodeChanged(name);
    }

    /** The koordlet's YarnRelease of the node, created or replaced (the simulated koordlets act as their own nodes). */
    void writeRelease(String node, YarnRelease release) {
        releases.put(node, YarnReleaseResource.of(node, release));
        nodeChanged(node);
        count("PUT yarnreleases", 1);
    }

    @Override
    public Optional<YarnReleaseResource> yarnRelease(String nodeName) {
        return Optional.ofNullable(releases.get(nodeName));
    }

    /** A merge patch of the Node's annotations. */
    void annotate(String name, String key, String value) {
        replace(name, new NodeBuilder(node(name)).editMetadata().addToAnnotations(key, value).endMetadata().build());
        count("PATCH nodes", 1);
    }

    // NodeMetric

    /** The koordlet's status write (its reporter replaces the status subresource). */
    void reportMetric(String node, NodeMetric.Status status) {
        NodeMetric m = metrics.get(node);
        NodeMetric updated = new NodeMetric();
        updated.setMetadata(new ObjectMetaBuilder(m.getMetadata()).withResourceVersion(nextVersion()).build());
        updated.setSpec(m.getSpec());
        updated.setStatus(status);
        metrics.put(node, updated);
        parsed.remove(node);
        nodeChanged(node);
        count("PUT nodemetrics/status", 1);
    }

    NodeMetric metric(String node) {
        return metrics.get(node);
    }

    // The broker's inputs

    @Override
    public List<Node> nodes() {
        List<Node> out = new ArrayList<>(nodeNames.size());
        for (String name : nodeNames) {
            out.add(nodes.get(name));
        }
        return out;
    }

    @Override
    public List<Pod> podsOn(String nodeName) {
        return podLists.computeIfAbsent(nodeName, n -> List.copyOf(podsByNode.getOrDefault(n, Map.of()).values()));
    }

    @Override
    public List<Pod> unboundPods() {
        return new ArrayList<>(unbound.values());
    }

    @Override
    public Optional<ClusterView.ParsedMetric> nodeMetric(String nodeName) {
        NodeMetric m = metrics.get(nodeName);
        if (m == null) {
            return Optional.empty();
        }
        return Optional.of(parsed.computeIfAbsent(nodeName, n -> {
            try {
                return new ClusterView.ParsedMetric(m.getMetadata().getResourceVersion(), NodeMetricInputs.read(m), null);
            } catch (InvalidInputException e) {
                return new ClusterView.ParsedMetric(m.getMetadata().getResourceVersion(), null, e.getMessage());
            }
        }));
    }

    @Override
    public ColocationConfig colocationConfig() {
        return colocation;
    }

    @Override
    public String configError() {
        return null;
    }

    @Override
    public boolean configUsable() {
        return true;
    }

    @Override
    public boolean watching() {
        return true;
    }

    @Override
    public synchronized Changes takeChanges() {
        Changes c = new Changes(new HashSet<>(changedNodes), everythingChanged);
        changedNodes.clear();
        everythingChanged = false;
        return c;
    }

    // The broker's writes

    @Override
    public Node publish(String nodeName, Node cached, BatchPublication publication) throws IOException {
        Node base = node(nodeName);
        if (base == null) {
            throw new IOException("Node " + nodeName + " no longer exists");
        }
        Node written = NodeStatusPublisher.withResources(base, publication);
        count("PUT nodes/status", 1);
        Map<String, String> annotations = NodeStatusPublisher.annotations(written, publication);
        if (!annotations.isEmpty()) {
            written = new NodeBuilder(written).editMetadata().addToAnnotations(annotations).endMetadata().build();
            count("PATCH nodes", 1);
        }
        replace(nodeName, written);
        return written;
    }

    @Override
    public void publishOrigin(String nodeName, BatchPublication publication) throws IOException {
        Map<String, String> annotations = NodeStatusPublisher.annotations(node(nodeName), publication);
        String origin = annotations.get(io.colocation.api.KoordinatorKeys.ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE);
        if (origin != null) {
            annotate(nodeName, io.colocation.api.KoordinatorKeys.ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE, origin);
        }
    }

    @Override
    public void warn(String nodeName, String reason, String message) {
        count("POST events", 1);
    }

    // The koordlets' watches

    /** What node {@code name}'s koordlet watches: its pods, its Node, its NodeMetric and its NodeSLO, as they are now. */
    NodeView view(String name) {
        return new NodeView() {
            @Override
            public void start(Duration timeout) throws NodeWatches.StartupException {
            }

            @Override
            public List<Pod> pods() {
                return podsOn(name);
            }

            @Override
            public Optional<Node> node() {
                return Optional.ofNullable(nodes.get(name));
            }

            @Override
            public Optional<DecodingInformer.Decoded<NodeMetric>> nodeMetricEntry() {
                NodeMetric m = metrics.get(name);
                return m == null ? Optional.empty() : Optional.of(new DecodingInformer.Decoded<>(name, m.getMetadata().getResourceVersion(), m, null));
            }

            @Override
            public Optional<NodeSLO> nodeSlo() {
                return Optional.ofNullable(slos.get(name));
            }

            @Override
            public Map<String, String> unreadable() {
                return Map.of();
            }

            @Override
            public boolean watching() {
                return true;
            }

            @Override
            public void close() {
            }
        };
    }
}
