package io.colocation.koordlet.kube;

import io.colocation.kube.client.ApiErrors;
import io.colocation.kube.client.DecodingInformer;
import io.colocation.kube.client.TrimmingItemStore;
import io.colocation.model.slo.NodeMetric;
import java.util.Map;
import java.util.TreeMap;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this agent watches in the API server, all narrowed to its own node: its pods (field selector
 * {@code spec.nodeName}), its Node, its NodeMetric (the broker writes the spec) and its NodeSLO (host
 * applications; optional: without the CRD the agent runs without host applications and says so). The two custom
 * resources are decoded object by object ({@link DecodingInformer}): one with a wrongly typed field is reported and
 * read as absent, and never stops the watch or the agent's start.
 */
public final class NodeWatches implements NodeView {
    private static final Logger LOG = LoggerFactory.getLogger(NodeWatches.class);

    private final KubernetesClient client;
    private final String nodeName;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private SharedIndexInformer<Pod> pods;
    private SharedIndexInformer<Node> node;
    private DecodingInformer<NodeMetric> nodeMetric;
    private DecodingInformer<NodeSLO> nodeSlo;

    public NodeWatches(KubernetesClient client, String nodeName) {
        this.client = client;
        this.nodeName = nodeName;
    }

    @Override
    public void start(Duration timeout) throws StartupException {
        pods = client.pods().inAnyNamespace().withField("spec.nodeName", nodeName).runnableInformer(0).itemStore(TrimmingItemStore.trimming(PodTrim::trim));
        node = client.nodes().withField("metadata.name", nodeName).runnableInformer(0).itemStore(TrimmingItemStore.trimmingMetadata());
        nodeMetric = DecodingInformer.named(client, NodeMetric.class, nodeName);
        informers.add(pods);
        informers.add(node);
        long deadline = System.nanoTime() + timeout.toNanos();
        await(pods.start().toCompletableFuture(), "pods of node " + nodeName, deadline, null, client);
        await(node.start().toCompletableFuture(), "Node " + nodeName, deadline, null, client);
        await(nodeMetric.start().toCompletableFuture(), "NodeMetric " + nodeName, deadline,
                "the NodeMetric CRD is not installed: kubectl apply -f conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml", client);
        DecodingInformer<NodeSLO> slo = DecodingInformer.named(client, NodeSLO.class, nodeName);
        try {
            await(slo.start().toCompletableFuture(), "NodeSLO " + nodeName, deadline, null, client);
            nodeSlo = slo;
        } catch (StartupException e) {
            slo.close();
            LOG.warn("NodeSLO of {} cannot be watched ({}); running without host applications. Install the CRD with "
                    + "kubectl apply -f conf/kubernetes/crds/slo.koordinator.sh_nodeslos.yaml", nodeName, e.getMessage());
        }
    }

    private static void await(CompletableFuture<?> started, String what, long deadline, String notFoundHint, KubernetesClient client)
            throws StartupException {
        try {
            started.get(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            String unreachable = ApiErrors.unreachable(client);
            throw new StartupException(unreachable != null ? "cannot reach it: " + unreachable
                    : "it did not list " + what + " in time (kubernetes.startupTimeoutSeconds)");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (notFoundHint != null && cause instanceof KubernetesClientException k && k.getCode() == 404) {
                throw new StartupException(notFoundHint);
            }
            throw new StartupException("cannot watch " + what + ": " + ApiErrors.describe(cause == null ? e : cause));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted while waiting for " + what);
        }
    }

    @Override
    public List<Pod> pods() {
        return pods.getStore().list();
    }

    @Override
    public Optional<Node> node() {
        return node.getStore().list().stream().findFirst();
    }

    @Override
    public Optional<DecodingInformer.Decoded<NodeMetric>> nodeMetricEntry() {
        return nodeMetric.get(nodeName);
    }

    @Override
    public Optional<NodeSLO> nodeSlo() {
        return nodeSlo == null ? Optional.empty() : nodeSlo.get(nodeName).map(DecodingInformer.Decoded::value);
    }

    @Override
    public Map<String, String> unreadable() {
        Map<String, String> out = new TreeMap<>();
        nodeMetric.unreadable().forEach((k, v) -> out.put("NodeMetric " + k, v));
        if (nodeSlo != null) {
            nodeSlo.unreadable().forEach((k, v) -> out.put("NodeSLO " + k, v));
        }
        return out;
    }

    /** Whether every watch is connected (a watch that broke is re-listed by fabric8). */
    @Override
    public boolean watching() {
        return informers.stream().allMatch(SharedIndexInformer::isWatching) && nodeMetric.isWatching()
                && (nodeSlo == null || nodeSlo.isWatching());
    }

    @Override
    public void close() {
        informers.forEach(SharedIndexInformer::close);
        if (nodeMetric != null) {
            nodeMetric.close();
        }
        if (nodeSlo != null) {
            nodeSlo.close();
        }
    }

    /** The agent cannot start: the message says what to fix. */
    public static final class StartupException extends Exception {
        private static final long serialVersionUID = 1L;

        public StartupException(String message) {
            super(message);
        }
    }
}
