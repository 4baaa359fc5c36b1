package io.colocation.simulator.parts;

import io.colocation.api.KoordinatorKeys;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.process.PartFailedException;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
        Path kube = confDir.resolve("kubernetes");
        try {
            ColocationObjects.installCrd(client, kube.resolve("crds/slo.koordinator.sh_nodemetrics.yaml"),
                    KoordinatorKeys.NODE_METRIC_API_VERSION, KoordinatorKeys.NODE_METRIC_KIND);
            ColocationObjects.installCrd(client, kube.resolve("crds/slo.koordinator.sh_nodeslos.yaml"),
                    KoordinatorKeys.NODE_METRIC_API_VERSION, "NodeSLO");
            ColocationObjects.installCrd(client, kube.resolve("crds/scheduling.sigs.k8s.io_podgroups.yaml"), "scheduling.sigs.k8s.io/v1alpha1",
                    "PodGroup");
            try (InputStream in = Files.newInputStream(kube.resolve("priority-classes.yaml"))) {
                for (var item : client.load(in).items()) {
                    client.resource(item).createOr(NonDeletingOperation::update);
                }
            }
            for (String ns : namespaces) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                        .createOr(NonDeletingOperation::update);
            }
            client.configMaps().inNamespace("koordinator-system").resource(new ConfigMapBuilder().withNewMetadata()
                    .withName(KoordinatorKeys.SLO_CONFIGMAP_NAME).withNamespace("koordinator-system").endMetadata()
                    .addToData(KoordinatorKeys.COLOCATION_CONFIG_KEY, COLOCATION)
                    .addToData("resource-threshold-config", RESOURCE_THRESHOLDS).build())
                    .createOr(NonDeletingOperation::update);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new PartFailedException("cluster objects (conf/kubernetes)", String.valueOf(e.getMessage()), null);
        }
    }
}
