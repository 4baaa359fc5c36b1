package io.colocation.simulator.real;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.KoordinatorKeys;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.process.PartFailedException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a cluster admin applies before the parts start: the CRDs and priority classes from {@code conf/kubernetes/}, the
 * namespaces, and the {@code slo-controller-config} ConfigMap as {@code conf/kubernetes/slo-controller-config.yaml}
 * ships it, with the two periods of background traffic of {@link #TIME_SCALED} (the values are simulated seconds: every
 * part reads the simulation's scaled clock).
 */
public final class ClusterObjects {
    static final String SHIPPED = "kubernetes/slo-controller-config.yaml";
    /**
     * A 60× clock makes background traffic 60 times denser: NodeMetrics are reported every 300 simulated seconds, not 60
     * (a report a minute would be a NodeMetric write a wall second per node, each read again by the broker, the scheduler
     * and the simulator's own watch); and a node's unchanged Batch is rewritten after 3600 simulated seconds, not 300 (a
     * safety refresh: every change is still written as it comes). Every report still carries the usage averaged over the
     * last 300 s, the traces' own resolution, and the koordlets' suppression acts on each host every step between reports.
     */
    static final Map<String, Integer> TIME_SCALED = Map.of("metricReportIntervalSeconds", 300, "updateTimeThresholdSeconds", 3600);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The ConfigMap's data as the simulation applies it: key → JSON text. */
    public record SloConfig(Map<String, String> data) {
        public String colocation() {
            return data.get(KoordinatorKeys.COLOCATION_CONFIG_KEY);
        }

        public String resourceThresholds() {
            return data.getOrDefault("resource-threshold-config", "");
        }
    }

    private ClusterObjects() {
    }

    /** The shipped ConfigMap's data with {@link #TIME_SCALED} laid over its colocation-config. */
    public static SloConfig sloConfig(Path confDir) throws PartFailedException {
        Path file = confDir.resolve(SHIPPED);
        ConfigMap shipped = null;
        try (InputStream in = Files.newInputStream(file)) {
            Object parsed = new KubernetesSerialization().unmarshal(in);
            for (Object o : parsed instanceof List<?> documents ? documents : List.of(parsed)) {
                if (o instanceof ConfigMap cm && KoordinatorKeys.SLO_CONFIGMAP_NAME.equals(cm.getMetadata().getName())) {
                    shipped = cm;
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new PartFailedException("slo-controller-config", "cannot read " + file + ": " + e.getMessage(), null);
        }
        if (shipped == null || shipped.getData() == null || !shipped.getData().containsKey(KoordinatorKeys.COLOCATION_CONFIG_KEY)) {
            throw new PartFailedException("slo-controller-config", file + " holds no ConfigMap " + KoordinatorKeys.SLO_CONFIGMAP_NAME
                    + " with " + KoordinatorKeys.COLOCATION_CONFIG_KEY, null);
        }
        Map<String, String> data = new LinkedHashMap<>();
        shipped.getData().forEach((k, v) -> data.put(k, v.trim()));
        try {
            ObjectNode colocation = (ObjectNode) JSON.readTree(data.get(KoordinatorKeys.COLOCATION_CONFIG_KEY));
            TIME_SCALED.forEach(colocation::put);
            data.put(KoordinatorKeys.COLOCATION_CONFIG_KEY, JSON.writeValueAsString(colocation));
        } catch (IOException | ClassCastException e) {
            throw new PartFailedException("slo-controller-config", file + ": " + KoordinatorKeys.COLOCATION_CONFIG_KEY
                    + " is not a JSON object: " + e.getMessage(), null);
        }
        return new SloConfig(Map.copyOf(data));
    }

    public static void apply(KubernetesClient client, Path confDir, List<String> namespaces, SloConfig config) throws PartFailedException {
        ColocationObjects.installAdminObjects(client, confDir, namespaces, config.data());
    }
}
