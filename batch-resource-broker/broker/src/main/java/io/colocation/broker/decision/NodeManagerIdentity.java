package io.colocation.broker.decision;

import io.colocation.api.KoordinatorKeys;
import io.colocation.api.yarn.YarnContract;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which YARN NodeManager runs on a Kubernetes node. As Koordinator: a pod on the node annotated
 * {@code yarn.hadoop.apache.org/node-id: <host>:<port>} (the NodeManager pod), with an optional
 * {@code yarn.hadoop.apache.org/cluster-id} (default {@code __default_yarn_cluster__}). For NodeManagers
 * installed on the hosts (no pod), when enabled: the NodeManager a YARN cluster reports whose host is the
 * node's name or its {@code kubernetes.io/hostname} label.
 */
public final class NodeManagerIdentity {
    private static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

    /** A resolved NodeManager and where its identity came from. */
    public record NodeManager(String clusterId, String nodeId, String source) {
    }

    /** The result: the NM, or why none (null when the node simply has no NM). */
    public record Resolution(NodeManager nodeManager, String problem) {
        static Resolution none() {
            return new Resolution(null, null);
        }
    }

    private NodeManagerIdentity() {
    }

    /**
     * @param knownNodesByCluster for the host mapping, each YARN cluster's reported node ids; empty map when
     *                            the host mapping is off
     */
    public static Resolution resolve(Node node, List<Pod> podsOnNode, Map<String, ? extends Collection<String>> knownNodesByCluster,
            boolean matchHostNames) {
        Optional<Pod> nmPod = podsOnNode.stream()
                .filter(p -> p.getMetadata().getAnnotations() != null && p.getMetadata().getAnnotations().containsKey(KoordinatorKeys.ANNOTATION_YARN_NODE_ID))
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .min(Comparator.comparing((Function<Pod, String>) p -> p.getMetadata().getNamespace())
                        .thenComparing(p -> p.getMetadata().getName()));
        if (nmPod.isPresent()) {
            Pod pod = nmPod.get();
            String where = "Pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
            String nodeId = pod.getMetadata().getAnnotations().get(KoordinatorKeys.ANNOTATION_YARN_NODE_ID).trim();
            String clusterId = pod.getMetadata().getAnnotations().getOrDefault(KoordinatorKeys.ANNOTATION_YARN_CLUSTER_ID, YarnContract.DEFAULT_CLUSTER_ID).trim();
            if (clusterId.isEmpty()) {
                clusterId = YarnContract.DEFAULT_CLUSTER_ID;
            }
            String problem = checkNodeId(nodeId);
            if (problem != null) {
                return new Resolution(null, where + ": annotation " + KoordinatorKeys.ANNOTATION_YARN_NODE_ID + "=\"" + nodeId + "\" " + problem);
            }
            return new Resolution(new NodeManager(clusterId, nodeId, where), null);
        }
        if (!matchHostNames) {
            return Resolution.none();
        }
        String name = node.getMetadata().getName();
        String hostLabel = node.getMetadata().getLabels() == null ? null : node.getMetadata().getLabels().get(HOSTNAME_LABEL);
        for (Map.Entry<String, ? extends Collection<String>> cluster : knownNodesByCluster.entrySet()) {
            for (String nodeId : cluster.getValue()) {
                String host = nodeId.substring(0, Math.max(nodeId.lastIndexOf(':'), 0));
                if (host.equalsIgnoreCase(name) || host.equalsIgnoreCase(hostLabel)) {
                    return new Resolution(new NodeManager(cluster.getKey(), nodeId, "host name " + host), null);
                }
            }
        }
        return Resolution.none();
    }

    /** Koordinator's rule: {@code host:port}, exactly two parts, an integer port. Null when valid. */
    static String checkNodeId(String nodeId) {
        String[] parts = nodeId.split(":", -1);
        if (parts.length != 2 || parts[0].isEmpty()) {
            return "is not host:port (for example nm-1.example.com:8041)";
        }
        try {
            int port = Integer.parseInt(parts[1]);
            if (port < 0 || port > 65535) {
                return "has port " + port + " outside 0-65535";
            }
        } catch (NumberFormatException e) {
            return "has a port that is not a number";
        }
        return null;
    }
}
