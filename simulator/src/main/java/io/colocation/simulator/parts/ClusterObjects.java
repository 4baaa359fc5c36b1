package io.colocation.simulator.parts;

import io.colocation.api.KoordinatorKeys;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.process.PartFailedException;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a cluster admin applies before the parts start: the CRDs and priority classes from {@code conf/kubernetes/}, the
 * namespaces, and the {@code slo-controller-config} ConfigMap with colocation on. Its values are Koordinator's defaults
 * (they are simulated seconds: every part reads the simulation's scaled clock), plus the BE thresholds a colocated
 * cluster turns on ({@link #RESOURCE_THRESHOLDS}; Koordinator ships them off).
 */
public final class ClusterObjects {
    /**
     * Koordinator's defaults, as {@code conf/kubernetes/slo-controller-config.yaml} ships them, but two periods of
     * background traffic, which a 60× clock makes 60 times denser: NodeMetrics are reported every 300 simulated seconds,
     * not 60 (a report a minute would be a NodeMetric write a wall second per node, a thousand a second at a thousand
     * nodes, each read again by the broker, the scheduler and the simulator's own watch); and a node's unchanged Batch is
     * rewritten after 3600 simulated seconds, not 300 (a safety refresh: every change is still written as it comes).
     * Every report still carries the usage averaged over the last 300 s, the traces' own resolution, and the koordlets'
     * suppress acts on each host every step between reports.
     */
    public static final String COLOCATION = """
            {"enable": true, "metricAggregateDurationSeconds": 300, "metricReportIntervalSeconds": 300,
             "metricAggregatePolicy": {"durations": ["5m", "10m", "30m"]}, "cpuReclaimThresholdPercent": 65,
             "memoryReclaimThresholdPercent": 65, "memoryCalculatePolicy": "usage", "degradeTimeMinutes": 15,
             "updateTimeThresholdSeconds": 3600, "resourceDiffThreshold": 0.1}""";
    /**
     * The koordlet's BE thresholds: suppress at Koordinator's 65 % (cpuset policy, its default), BE memory eviction at its
     * 70 %, and BE CPU eviction with the values of Koordinator's guide (satisfaction 60–80 %, usage 90 %, a 60 s window).
     */
    public static final String RESOURCE_THRESHOLDS = """
            {"clusterStrategy": {"enable": true, "cpuSuppressThresholdPercent": 65, "cpuSuppressPolicy": "cpuset",
             "memoryEvictThresholdPercent": 70, "cpuEvictBESatisfactionLowerPercent": 60,
             "cpuEvictBESatisfactionUpperPercent": 80, "cpuEvictBEUsageThresholdPercent": 90, "cpuEvictTimeWindowSeconds": 60}}""";

    private ClusterObjects() {
    }

    public static void apply(KubernetesClient client, Path confDir, List<String> namespaces) throws PartFailedException {
        ColocationObjects.installAdminObjects(client, confDir, namespaces, Map.of(KoordinatorKeys.COLOCATION_CONFIG_KEY, COLOCATION,
                "resource-threshold-config", RESOURCE_THRESHOLDS));
    }
}
