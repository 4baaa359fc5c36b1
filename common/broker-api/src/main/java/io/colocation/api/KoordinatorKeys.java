package io.colocation.api;

/** Koordinator label and annotation keys this product reads and writes (docs/koordinator-compatibility.md). */
public final class KoordinatorKeys {
    public static final String LABEL_PRIORITY_CLASS = "koordinator.sh/priority-class";
    public static final String LABEL_PRIORITY = "koordinator.sh/priority";
    public static final String LABEL_QOS_CLASS = "koordinator.sh/qosClass";

    public static final String ANNOTATION_NODE_COLOCATION_STRATEGY = "node.koordinator.sh/colocation-strategy";
    public static final String LABEL_CPU_RECLAIM_RATIO = "node.koordinator.sh/cpu-reclaim-ratio";
    public static final String LABEL_MEMORY_RECLAIM_RATIO = "node.koordinator.sh/memory-reclaim-ratio";
    public static final String LABEL_MID_STATIC_CPU_RESERVED_RATIO = "node.koordinator.sh/mid-static-cpu-reserved-ratio";
    public static final String LABEL_MID_STATIC_MEMORY_RESERVED_RATIO = "node.koordinator.sh/mid-static-memory-reserved-ratio";
    public static final String LABEL_EVICTION_ENABLED = "koordinator.sh/eviction-enabled";
    public static final String ANNOTATION_EVICTION_PRIORITY = "koordinator.sh/eviction-priority";
    public static final String ANNOTATION_EVICTION_POLICY = "koordinator.sh/eviction-policy";
    public static final String ANNOTATION_RESOURCE_STATUS = "scheduling.koordinator.sh/resource-status";
    public static final String ANNOTATION_SYSTEM_QOS_RESOURCE = "node.koordinator.sh/system-qos-resource";
    public static final String ANNOTATION_NODE_RESERVATION = "node.koordinator.sh/reservation";
    public static final String ANNOTATION_CPU_NORMALIZATION_RATIO = "node.koordinator.sh/cpu-normalization-ratio";
    public static final String ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE = "node.koordinator.sh/originExtendedAllocatable";
    public static final String ANNOTATION_THIRD_PARTY_ALLOCATIONS = "node.koordinator.sh/thirdPartyAllocations";

    /** On the NodeManager pod (Koordinator's yarn-operator): its YARN node id, {@code <host>:<port>}, and YARN cluster. */
    public static final String ANNOTATION_YARN_NODE_ID = "yarn.hadoop.apache.org/node-id";
    public static final String ANNOTATION_YARN_CLUSTER_ID = "yarn.hadoop.apache.org/cluster-id";

    public static final String NODE_METRIC_API_VERSION = "slo.koordinator.sh/v1alpha1";
    public static final String NODE_METRIC_KIND = "NodeMetric";

    public static final String SLO_CONFIGMAP_NAME = "slo-controller-config";
    public static final String COLOCATION_CONFIG_KEY = "colocation-config";

    private KoordinatorKeys() {
    }
}
