package io.colocation.sandbox.parts;

import io.colocation.localclusters.process.PartFailedException;
import io.colocation.api.KoordinatorKeys;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.model.config.SloConfigKey;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a cluster admin applies before the parts start: the CRDs and priority classes from {@code conf/kubernetes/},
 * the namespaces the scenario uses, and the slo-controller-config with colocation on. The sandbox's one change to
 * Koordinator's defaults: metrics are aggregated over 10 s and reported every 5 s (instead of 300 s and 60 s), so a
 * load change reaches Batch within seconds of compressed time. Its resource-threshold-config turns the BE strategies on
 * (Koordinator ships them off) with BECPUEvict's shipped satisfaction thresholds (60 % / 80 %, conf/kubernetes), judged
 * over a 10 s window instead of 300 s and against the node's {@code batch-cpu} allocatable ({@code evictByAllocatable},
 * Koordinator's alternative to the BE cgroup's real limit): what the spike takes from BE on the real node is its Batch.
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
    static final String SANDBOX_THRESHOLDS = """
            {"clusterStrategy": {"enable": true, "cpuEvictBESatisfactionLowerPercent": 60, "cpuEvictBESatisfactionUpperPercent": 80,
             "cpuEvictTimeWindowSeconds": 10, "cpuEvictPolicy": "evictByAllocatable"}}""";

    private ClusterSetup() {
    }

    /** The example profile the batch namespace's pods are converted by. */
    public static final String PROFILE = "examples/colocation-profile-batch.yaml";
    /** The example profile Spark's executor pods are converted by. */
    public static final String SPARK_PROFILE = "examples/colocation-profile-spark.yaml";
    /** The label the example profile selects pods (and namespaces) by. */
    public static final String ENABLE_COLOCATION = "koordinator.sh/enable-colocation";

    public static void apply(KubernetesClient client, Path confDir) throws PartFailedException {
        ColocationObjects.installAdminObjects(client, confDir, List.of(ONLINE_NAMESPACE, BATCH_NAMESPACE, YARN_NAMESPACE,
                "koordinator-system"), Map.of(KoordinatorKeys.COLOCATION_CONFIG_KEY, SANDBOX_COLOCATION, SloConfigKey.RESOURCE_THRESHOLD.key(), SANDBOX_THRESHOLDS));
    }

    /**
     * Ordinary pods of the batch namespace become batch pods the way Koordinator users do it: the example profile
     * ({@value #PROFILE}) selects them, and the broker's webhook, registered as {@code conf/kubernetes/webhook.yaml} does
     * but by URL (no Service routing without kube-proxy), converts them. The namespace requires the webhook (failurePolicy
     * Fail there): a batch pod never runs unconverted.
     */
    public static void registerProfileWebhook(KubernetesClient client, Path confDir, int webhookPort) throws PartFailedException {
        try {
            client.namespaces().withName(BATCH_NAMESPACE).edit(ns -> {
                ns.getMetadata().getLabels().put(ENABLE_COLOCATION, "true");
                ns.getMetadata().getLabels().put("colocation.io/profile-admission", "required");
                return ns;
            });
            for (String profile : List.of(PROFILE, SPARK_PROFILE)) {
                try (var in = java.nio.file.Files.newInputStream(confDir.resolve(profile))) {
                    for (var item : client.load(in).items()) {
                        client.resource(item).createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
                    }
                }
            }
            try (var in = java.nio.file.Files.newInputStream(confDir.resolve("kubernetes/webhook.yaml"))) {
                for (var item : client.load(in).items()) {
                    if (item instanceof io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration c) {
                        // the pod webhooks only: the sandbox's koordlets act with the admin's rights, not a node agent's token
                        c.getWebhooks().removeIf(w -> !w.getName().startsWith("mpod-"));
                        c.getWebhooks().forEach(w -> w.setClientConfig(new io.fabric8.kubernetes.api.model.admissionregistration.v1
                                .WebhookClientConfigBuilder().withUrl("https://127.0.0.1:" + webhookPort
                                        + w.getClientConfig().getService().getPath()).build()));
                        client.resource(c).createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
                    }
                }
            }
        } catch (Exception e) {
            throw new PartFailedException("ClusterColocationProfile webhook (conf/" + PROFILE + ", conf/" + SPARK_PROFILE
                    + ", conf/kubernetes/webhook.yaml)",
                    String.valueOf(e.getMessage()), null);
        }
    }
}
