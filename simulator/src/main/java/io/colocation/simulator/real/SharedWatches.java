package io.colocation.simulator.real;

import io.colocation.koordlet.kube.NodeView;
import io.colocation.koordlet.kube.NodeWatches;
import io.colocation.kube.client.DecodingInformer;
import io.colocation.kube.client.Handlers;
import io.colocation.kube.client.TrimmingItemStore;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * One watch per kind for the whole simulated cluster (Pods, Nodes, NodeMetrics, NodeSLOs), in place of the four
 * watches each koordlet opens for its own node on a real host: a thousand agents in one process would otherwise hold
 * four thousand watches on the API server. Each agent reads its node's part through {@link #view(String)}, which
 * answers exactly what {@link NodeWatches} answers on a host.
 */
public final class SharedWatches implements AutoCloseable {
    /** Hears of every pod added, changed or deleted ({@code deleted} true). */
    public interface PodListener {
        void changed(Pod pod, boolean deleted);
    }

    private final KubernetesClient client;
    private final List<PodListener> podListeners = new CopyOnWriteArrayList<>();
    private final Map<String, Map<String, Pod>> podsByNode = new ConcurrentHashMap<>();
    private SharedIndexInformer<Pod> pods;
    private SharedIndexInformer<Node> nodes;
    private DecodingInformer<NodeMetric> nodeMetrics;
    private DecodingInformer<NodeSLO> nodeSlos;

    public SharedWatches(KubernetesClient client) {
        this.client = client;
    }

    public void onPod(PodListener listener) {
        podListeners.add(listener);
    }

    public void start(Duration timeout) throws NodeWatches.StartupException {
        pods = client.pods().inAnyNamespace().runnableInformer(0).itemStore(TrimmingItemStore.trimmingMetadata());
        pods.addEventHandler(Handlers.changedOrDeleted(pod -> index(pod, false), pod -> index(pod, true)));
        nodes = client.nodes().runnableInformer(0).itemStore(TrimmingItemStore.trimmingMetadata());
        nodeMetrics = DecodingInformer.all(client, NodeMetric.class);
        nodeSlos = DecodingInformer.all(client, NodeSLO.class);
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            nodes.start().toCompletableFuture().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            pods.start().toCompletableFuture().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            nodeMetrics.start().toCompletableFuture().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            nodeSlos.start().toCompletableFuture().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new NodeWatches.StartupException("cannot watch the simulated cluster: " + e);
        }
    }

    private void index(Pod pod, boolean deleted) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        if (node != null && !node.isEmpty()) {
            Map<String, Pod> onNode = podsByNode.computeIfAbsent(node, n -> new ConcurrentHashMap<>());
            if (deleted) {
                onNode.remove(key);
            } else {
                onNode.put(key, pod);
            }
        }
        for (PodListener l : podListeners) {
            l.changed(pod, deleted);
        }
    }

    /** The pods bound to {@code node}. */
    public List<Pod> podsOn(String node) {
        Map<String, Pod> onNode = podsByNode.get(node);
        return onNode == null ? List.of() : new ArrayList<>(onNode.values());
    }

    public Optional<Node> node(String name) {
        return Optional.ofNullable(nodes.getStore().getByKey(name));
    }

    public Optional<DecodingInformer.Decoded<NodeMetric>> nodeMetric(String name) {
        return nodeMetrics.get(name);
    }

    /** The agent's view of its node. */
    public NodeView view(String nodeName) {
        return new NodeView() {
            @Override
            public void start(Duration timeout) {
                // the shared watches are started once for every node
            }

            @Override
            public List<Pod> pods() {
                return podsOn(nodeName);
            }

            @Override
            public Optional<Node> node() {
                return SharedWatches.this.node(nodeName);
            }

            @Override
            public Optional<DecodingInformer.Decoded<NodeMetric>> nodeMetricEntry() {
                return nodeMetrics.get(nodeName);
            }

            @Override
            public Optional<NodeSLO> nodeSlo() {
                return nodeSlos.get(nodeName).map(DecodingInformer.Decoded::value);
            }

            @Override
            public Map<String, String> unreadable() {
                Map<String, String> out = new TreeMap<>();
                nodeMetrics.get(nodeName).filter(d -> !d.readable()).ifPresent(d -> out.put("NodeMetric " + nodeName, d.error()));
                nodeSlos.get(nodeName).filter(d -> !d.readable()).ifPresent(d -> out.put("NodeSLO " + nodeName, d.error()));
                return out;
            }

            @Override
            public boolean watching() {
                return SharedWatches.this.watching();
            }

            @Override
            public void close() {
                // closed with the shared watches
            }
        };
    }

    public boolean watching() {
        return pods.isWatching() && nodes.isWatching() && nodeMetrics.isWatching() && nodeSlos.isWatching();
    }

    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[] {pods, nodes, nodeMetrics, nodeSlos}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    // closing: nothing left to do
                }
            }
        }
    }
}
