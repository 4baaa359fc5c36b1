package io.colocation.scheduler.service;

import io.colocation.api.InvalidInputException;
import io.colocation.model.slo.NodeMetric;
import io.colocation.scheduler.framework.ClusterSnapshot;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Snapshots;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's view of the cluster: informers on Nodes, Pods and NodeMetrics, plus the pods this scheduler has
 * assumed onto a node but the informer does not show bound yet, so two decisions in a row never count the same
 * free room twice (kube-scheduler's assume/forget cache).
 */
final class ClusterCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterCache.class);

    private final KubernetesClient client;
    private final Map<String, Pod> assumed = new ConcurrentHashMap<>();
    private SharedIndexInformer<Node> nodes;
    private SharedIndexInformer<Pod> pods;
    private SharedIndexInformer<NodeMetric> metrics;

    ClusterCache(KubernetesClient client) {
        this.client = client;
    }

    /** Starts the informers; {@code pending} hears of every pod added or changed, {@code gone} of every pod deleted. */
    void start(Consumer<Pod> changed, Consumer<Pod> gone) {
        nodes = client.nodes().inform();
        try {
            metrics = client.resources(NodeMetric.class).inform();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            LOG.warn("the NodeMetric CRD (slo.koordinator.sh) is not installed: LoadAwareScheduling sees no node load;"
                    + " apply conf/kubernetes/crds/ and restart the scheduler");
        }
        pods = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                observed(pod);
                changed.accept(pod);
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
                observed(pod);
                changed.accept(pod);
            }

            @Override
            public void onDelete(Pod pod, boolean unknownFinalState) {
                assumed.remove(Snapshots.key(pod));
                gone.accept(pod);
            }
        });
    }

    /** The informer shows the pod bound (or gone): the assumption is no longer needed. */
    private void observed(Pod pod) {
        if (pod.getSpec() != null && pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
            assumed.remove(Snapshots.key(pod));
        }
    }

    void assume(Pod pod, String node) {
        assumed.put(Snapshots.key(pod), new PodBuilder(pod).editSpec().withNodeName(node).endSpec().build());
    }

    void forget(Pod pod) {
        assumed.remove(Snapshots.key(pod));
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

    /** The gang's members: those still waiting for a node (by key) and how many are bound or assumed. */
    record Members(List<Pod> pending, int placed) {
    }

    Members members(Gang gang, String schedulerName) {
        List<Pod> pending = new ArrayList<>();
        int placed = 0;
        for (Pod p : pods.getStore().list()) {
            if (!gang.member(p) || Snapshots.terminated(p) || p.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            boolean bound = p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty();
            if (bound || assumed.containsKey(Snapshots.key(p))) {
                placed++;
            } else if (schedulerName.equals(p.getSpec().getSchedulerName())) {
                pending.add(p);
            }
        }
        pending.sort(java.util.Comparator.comparing(Snapshots::key));
        return new Members(pending, placed);
    }

    /** Nodes in name order with their bound and assumed pods and their NodeMetrics; an unreadable node is skipped. */
    ClusterSnapshot snapshot(Instant now) {
        Map<String, List<PodInfo>> byNode = new HashMap<>();
        Map<String, Pod> placed = new HashMap<>();
        for (Pod p : pods.getStore().list()) {
            if (p.getSpec() != null && p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty()
                    && !Snapshots.terminated(p)) {
                placed.put(Snapshots.key(p), p);
            }
        }
        assumed.forEach(placed::putIfAbsent);
        for (Pod p : placed.values()) {
            try {
                byNode.computeIfAbsent(p.getSpec().getNodeName(), k -> new ArrayList<>()).add(Snapshots.pod(p, now, "Pod "
                        + Snapshots.key(p) + ": "));
            } catch (InvalidInputException e) {
                LOG.warn("a pod the scheduler cannot read is left out of its node's load: {}", e.getMessage());
            }
        }
        Map<String, NodeMetric> metricByNode = new HashMap<>();
        if (metrics != null) {
            metrics.getStore().list().forEach(m -> metricByNode.put(m.getMetadata().getName(), m));
        }
        List<NodeInfo> infos = new ArrayList<>();
        List<Node> all = new ArrayList<>(nodes.getStore().list());
        all.sort(java.util.Comparator.comparing(n -> n.getMetadata().getName()));
        for (Node n : all) {
            String name = n.getMetadata().getName();
            try {
                infos.add(Snapshots.node(n, byNode.getOrDefault(name, List.of()), metricByNode.get(name), "Node " + name + ": "));
            } catch (InvalidInputException e) {
                LOG.warn("a node the scheduler cannot read is not a candidate: {}", e.getMessage());
            }
        }
        return new ClusterSnapshot(infos, now);
    }

    @Override
    public void close() {
        for (SharedIndexInformer<?> i : new SharedIndexInformer<?>[] {pods, nodes, metrics}) {
            if (i != null) {
                i.close();
            }
        }
    }
}
