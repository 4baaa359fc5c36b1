package io.colocation.broker.fakes;

import io.colocation.api.KoordinatorKeys;
import io.colocation.broker.calculation.NodeMetricState;
import io.colocation.broker.kube.ClusterInputs;
import io.colocation.broker.kube.ClusterView;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.config.ColocationConfigParser;
import io.colocation.model.node.YarnReleaseResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/** An in-memory Kubernetes for a broker pass: nodes, pods, NodeMetrics and the colocation config. */
public final class FakeCluster implements ClusterInputs {
    private static final long GI = 1L << 30;
    private final AtomicLong versions = new AtomicLong();
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Map<String, List<Pod>> pods = new HashMap<>();
    private final Map<String, ClusterView.ParsedMetric> metrics = new HashMap<>();
    private final Map<String, YarnReleaseResource> releases = new HashMap<>();
    private ColocationConfig config;
    private final java.util.Set<String> changed = new java.util.HashSet<>();
    private boolean everything = true;

    public FakeCluster() {
        try {
            config = ColocationConfigParser.parse("{\"enable\": true}", "fake");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A node of {@code cores} / {@code memoryGi}, with {@code annotations}. */
    public void node(String name, int cores, long memoryGi, Map<String, String> annotations) {
        Map<String, Quantity> r = Map.of("cpu", new Quantity(Integer.toString(cores)), "memory", new Quantity(memoryGi + "Gi"));
        nodes.put(name, new NodeBuilder().withNewMetadata().withName(name).withResourceVersion(next())
                .withAnnotations(new HashMap<>(annotations)).endMetadata()
                .withNewStatus().withCapacity(r).withAllocatable(r).endStatus().build());
        changed.add(name);
    }

    /** A NodeManager pod on the node, as Koordinator's annotations name it. */
    public void nodeManager(String node, String nodeId, String clusterId) {
        pods.computeIfAbsent(node, k -> new ArrayList<>()).add(new PodBuilder().withNewMetadata().withName("nm-" + node)
                .withNamespace("yarn").withUid("uid-nm-" + node).withResourceVersion(next())
                .addToAnnotations(KoordinatorKeys.ANNOTATION_YARN_NODE_ID, nodeId)
                .addToAnnotations(KoordinatorKeys.ANNOTATION_YARN_CLUSTER_ID, clusterId).endMetadata()
                .withNewSpec().withNodeName(node).endSpec().withNewStatus().withPhase("Running").endStatus().build());
        changed.add(node);
    }

    /** The koordlet's report: node usage, all of it system usage. */
    public void metric(String node, long cpuMilli, long memoryGi, Instant updateTime) {
        Resources usage = new Resources(cpuMilli, memoryGi * GI);
        metrics.put(node, new ClusterView.ParsedMetric(next(), new NodeMetricState(updateTime, usage, usage, List.of(), List.of(), null), null));
        changed.add(node);
    }

    /** A NodeMetric that cannot be read. */
    public void unreadableMetric(String node, String why) {
        metrics.put(node, new ClusterView.ParsedMetric(next(), null, why));
        changed.add(node);
    }

    /** The node's YarnRelease as its koordlet writes it (the node changes for the next pass). */
    public void release(String node, YarnReleaseResource release) {
        releases.put(node, release);
        changed.add(node);
    }

    @Override
    public Optional<YarnReleaseResource> yarnRelease(String nodeName) {
        return Optional.ofNullable(releases.get(nodeName));
    }

    public void annotate(String node, String key, String value) {
        Node n = nodes.get(node);
        n.getMetadata().getAnnotations().put(key, value);
        n.getMetadata().setResourceVersion(next());
        changed.add(node);
    }

    private String next() {
        return Long.toString(versions.incrementAndGet());
    }

    @Override
    public List<Node> nodes() {
        return List.copyOf(nodes.values());
    }

    @Override
    public List<Pod> podsOn(String nodeName) {
        return pods.getOrDefault(nodeName, List.of());
    }

    @Override
    public List<Pod> unboundPods() {
        return List.of();
    }

    @Override
    public Optional<ClusterView.ParsedMetric> nodeMetric(String nodeName) {
        return Optional.ofNullable(metrics.get(nodeName));
    }

    @Override
    public ColocationConfig colocationConfig() {
        return config;
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
    public Changes takeChanges() {
        Changes c = new Changes(java.util.Set.copyOf(changed), everything);
        changed.clear();
        everything = false;
        return c;
    }
}
