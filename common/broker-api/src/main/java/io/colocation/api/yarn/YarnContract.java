package io.colocation.api.yarn;

/**
 * The broker ⇄ YARN scheduler plugin contract in ZooKeeper. Every document is JSON of the document classes
 * in this package (field names as their fields), written by one side only:
 * <pre>
 * {root}/epoch                                  broker: the leader epoch (decimal text), the fencing token
 * {root}/yarn/{clusterId}/grants/{nodeId}       broker: {@link YarnGrant} for one NodeManager
 * {root}/yarn/{clusterId}/acks/{nodeId}         plugin: {@link YarnGrantAck}, the grant version applied
 * {root}/yarn/{clusterId}/nodes/{nodeId}        plugin: {@link YarnNodeReport}, YARN's allocation on the node
 * {root}/yarn/{clusterId}/demand                plugin: {@link YarnDemand}, pending requests cluster-wide
 * {root}/yarn/{clusterId}/applications          plugin: {@link YarnApplications}, what each application holds
 * {root}/yarn/{clusterId}/queue-limits          broker: {@link YarnQueueLimits}, a tree's CapacityScheduler limits
 * {root}/yarn/{clusterId}/queues                plugin: {@link YarnQueues}, each queue's use and the limits in force
 * </pre>
 * {@code nodeId} is the NodeManager's {@code host:port}. A plugin applies a grant only if its epoch is
 * not older than the highest epoch it has seen, so a deposed broker cannot inflate a grant (nor a queue's limit).
 * Memory is in MiB both ways (Koordinator sends decimal MB and reads back MiB, a 4.9 % error).
 */
public final class YarnContract {
    public static final String DEFAULT_ROOT = "/colocation";
    public static final String DEFAULT_CLUSTER_ID = "__default_yarn_cluster__";

    private YarnContract() {
    }

    public static String epochPath(String root) {
        return root + "/epoch";
    }

    public static String clusterPath(String root, String clusterId) {
        return root + "/yarn/" + clusterId;
    }

    public static String grantsPath(String root, String clusterId) {
        return clusterPath(root, clusterId) + "/grants";
    }

    public static String grantPath(String root, String clusterId, String nodeId) {
        return grantsPath(root, clusterId) + "/" + nodeId;
    }

    public static String ackPath(String root, String clusterId, String nodeId) {
        return clusterPath(root, clusterId) + "/acks/" + nodeId;
    }

    public static String nodeReportPath(String root, String clusterId, String nodeId) {
        return clusterPath(root, clusterId) + "/nodes/" + nodeId;
    }

    public static String demandPath(String root, String clusterId) {
        return clusterPath(root, clusterId) + "/demand";
    }

    public static String applicationsPath(String root, String clusterId) {
        return clusterPath(root, clusterId) + "/applications";
    }

    public static String queueLimitsPath(String root, String clusterId) {
        return clusterPath(root, clusterId) + "/queue-limits";
    }

    public static String queuesPath(String root, String clusterId) {
        return clusterPath(root, clusterId) + "/queues";
    }
}
