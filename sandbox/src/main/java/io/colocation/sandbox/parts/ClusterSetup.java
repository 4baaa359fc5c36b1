package io.colocation.sandbox.parts;

import io.colocation.localclusters.process.PartFailedException;
import io.colocation.api.KoordinatorKeys;
import io.colocation.localclusters.kube.ColocationObjects;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a cluster admin applies before the parts start: the CRDs and priority classes from {@code conf/kubernetes/},
 * the namespaces the scenario uses, and the slo-controller-config with colocation on. The sandbox's one change to
 * Koordinator's defaults: metrics are aggregated over 10 s and reported every 5 s (instead of 300 s and 60 s), so a
 * load change reaches Batch within seconds of compressed time.
 */
public final class ClusterSetup {
    public static final String ONLINE_NAMESPACE = "online";
    public static final String BATCH_NAMESPACE = "batch";
    public static final String YARN_NAMESPACE = "yarn";

    static final String SANDBOX_COLOCATION = """
            {"enable": true, "metricAggregateDurationSeconds": 10, "metricReportIntervalSeconds": 5,
             "metricAggregatePolicy": {"durations": ["1m", "2m", "5m"]}, "cpuReclaimThresholdPercent": 65,
             "memoryReclaimThresholdPercent": 65, "memoryCalculatePolicy": "usage", "degradeTimeMinutes": 15,
             "updateTimeThresholdSeconds": 300, "resourceDiffThreshold": 0.1}""";

    private ClusterSetup() {
    }

    public static void apply(KubernetesClient client, Path confDir) throws PartFailedException {
        ColocationObjects.installAdminObjects(client, confDir, List.of(ONLINE_NAMESPACE, BATCH_NAMESPACE, YARN_NAMESPACE,
                "koordinator-system"), Map.of(KoordinatorKeys.COLOCATION_CONFIG_KEY, SANDBOX_COLOCATION));
    }
}
