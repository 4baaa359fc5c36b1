package io.colocation.broker.decision;

import io.colocation.api.KoordinatorKeys;
import io.colocation.api.yarn.YarnContract;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
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
     * The NodeManagers the YARN clusters report, by host name (lower case), for the host-name mapping: one index per pass
     * instead of comparing each node with every reported NodeManager (a million comparisons a pass at 1,000 nodes).
     */
    public static final class HostIndex {
        private record Entry(int order, NodeManager nodeManager) {
        }

        private final Map<String, Entry> byHost = new java.util.HashMap<>();

        /** @param knownNodesByCluster each YARN cluster's reported node ids ({@code host:port}) */
        public static HostIndex of(Map<String, ? extends Collection<String>> knownNodesByCluster) {
            HostIndex index = new HostIndex();
            int order = 0;
            for (Map.Entry<String, ? extends Collection<String>> cluster : knownNodesByCluster.entrySet()) {
                for (String nodeId : cluster.getValue()) {
                    String host = nodeId.substring(0, Math.max(nodeId.lastIndexOf(':'), 0));
                    index.byHost.putIfAbsent(host.toLowerCase(java.util.Locale.ROOT),
                            new Entry(order++, new NodeManager(cluster.getKey(), nodeId, "host name " + host)));
                }
            }
            return index;
        }

        /** The first reported NodeManager on either host name; null for none. */
        NodeManager first(String name, String otherName) {
            Entry a = name == null ? null : byHost.get(name.toLowerCase(java.util.Locale.ROOT));
            Entry b = otherName == null ? null : byHost.get(otherName.toLowerCase(java.util.Locale.ROOT));
            Entry first = a == null ? b : b == null || a.order() <= b.order() ? a : b;
            return first == null ? null : first.nodeManager();
        }
    }

    /**
     * @param known for the host mapping, the NodeManagers each YARN cluster reports (empty when the host mapping is off)
     */
    public static Resolution resolve(Node node, List<Pod> podsOnNode, HostIndex known, boolean matchHostNames) {
        Pod nmPod = null;
        for (Pod p : podsOnNode) {
            Map<String, String> a = p.getMetadata().getAnnotations();
            if (a != null && a.containsKey(KoordinatorKeys.ANNOTATION_YARN_NODE_ID) && p.getMetadata().getDeletionTimestamp() == null
                    && (nmPod == null || BY_NAMESPACE_AND_NAME.compare(p, nmPod) < 0)) {
                nmPod = p;
            }
        }
        if (nmPod != null) {
            Pod pod = nmPod;
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
        String hostLabel = node.getMetadata().getLabels() == null ? null : node.getMetadata().getLabels().get(HOSTNAME_LABEL);
        NodeManager byHost = known.first(node.getMetadata().getName(), hostLabel);
        return byHost == null ? Resolution.none() : new Resolution(byHost, null);
    }

    private static final Comparator<Pod> BY_NAMESPACE_AND_NAME = Comparator.comparing((Function<Pod, String>) p -> p.getMetadata().getNamespace())
            .thenComparing(p -> p.getMetadata().getName());

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
