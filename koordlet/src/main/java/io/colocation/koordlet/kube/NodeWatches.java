package io.colocation.koordlet.kube;

import io.colocation.model.slo.NodeMetric;
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
 * applications; optional: without the CRD the agent runs without host applications and says so).
 */
public final class NodeWatches implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeWatches.class);

    private final KubernetesClient client;
    private final String nodeName;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private SharedIndexInformer<Pod> pods;
    private SharedIndexInformer<Node> node;
    private SharedIndexInformer<NodeMetric> nodeMetric;
    private SharedIndexInformer<NodeSLO> nodeSlo;

    public NodeWatches(KubernetesClient client, String nodeName) {
        this.client = client;
        this.nodeName = nodeName;
    }

    /** Starts every watch and waits until each listed once. */
    public void start(Duration timeout) throws StartupException {
        pods = client.pods().inAnyNamespace().withField("spec.nodeName", nodeName).runnableInformer(0).itemStore(new TrimmedPodStore());
        node = client.nodes().withField("metadata.name", nodeName).runnableInformer(0);
        nodeMetric = client.resources(NodeMetric.class).withField("metadata.name", nodeName).runnableInformer(0);
        informers.add(pods);
        informers.add(node);
        informers.add(nodeMetric);
        long deadline = System.nanoTime() + timeout.toNanos();
        await(pods.start().toCompletableFuture(), "pods of node " + nodeName, deadline, null);
        await(node.start().toCompletableFuture(), "Node " + nodeName, deadline, null);
        await(nodeMetric.start().toCompletableFuture(), "NodeMetric " + nodeName, deadline,
                "the NodeMetric CRD is not installed: kubectl apply -f conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml");
        SharedIndexInformer<NodeSLO> slo = client.resources(NodeSLO.class).withField("metadata.name", nodeName).runnableInformer(0);
        try {
            await(slo.start().toCompletableFuture(), "NodeSLO " + nodeName, deadline, null);
            nodeSlo = slo;
            informers.add(slo);
        } catch (StartupException e) {
            slo.close();
            LOG.warn("NodeSLO of {} cannot be watched ({}); running without host applications. Install the CRD with "
                    + "kubectl apply -f conf/kubernetes/crds/slo.koordinator.sh_nodeslos.yaml", nodeName, e.getMessage());
        }
    }

    private static void await(CompletableFuture<?> started, String what, long deadline, String notFoundHint) throws StartupException {
        try {
            started.get(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new StartupException("the API server did not list " + what + " in time");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (notFoundHint != null && cause instanceof KubernetesClientException k && k.getCode() == 404) {
                throw new StartupException(notFoundHint);
            }
            throw new StartupException("cannot watch " + what + ": " + (cause == null ? e.getMessage() : cause.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted while waiting for " + what);
        }
    }

    public List<Pod> pods() {
        return pods.getStore().list();
    }

    public Optional<Node> node() {
        return node.getStore().list().stream().findFirst();
    }

    public Optional<NodeMetric> nodeMetric() {
        return nodeMetric.getStore().list().stream().findFirst();
    }

    public Optional<NodeSLO> nodeSlo() {
        return nodeSlo == null ? Optional.empty() : nodeSlo.getStore().list().stream().findFirst();
    }

    /** Whether every watch is connected (a watch that broke is re-listed by fabric8). */
    public boolean watching() {
        return informers.stream().allMatch(SharedIndexInformer::isWatching);
    }

    @Override
    public void close() {
        informers.forEach(SharedIndexInformer::close);
    }

    /** The agent cannot start: the message says what to fix. */
    public static final class StartupException extends Exception {
        private static final long serialVersionUID = 1L;

        public StartupException(String message) {
            super(message);
        }
    }
}
