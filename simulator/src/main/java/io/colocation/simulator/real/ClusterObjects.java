package io.colocation.simulator.real;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.api.KoordinatorKeys;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.process.PartFailedException;
import io.colocation.model.config.ColocationConfigParser;
import io.colocation.model.config.ColocationStrategy;
import io.colocation.model.config.InvalidConfigException;
import io.colocation.model.config.SloConfigKey;
import io.colocation.model.config.SloConfigParser;
import io.colocation.model.config.SloStrategies;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.KubernetesList;
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
 * ships it or as the user's {@code --slo-config} file has it, with the two periods of background traffic of {@link #TIME_SCALED} (the values are simulated seconds: every
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
    public static final Map<String, Integer> TIME_SCALED = Map.of("metricReportIntervalSeconds", 300, "updateTimeThresholdSeconds", 3600);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The ConfigMap's data as the simulation applies it (key → JSON text), where it was read, and the cluster strategies
     * of its two keys the report states (defaults laid under what the file sets, as the broker and the koordlet read them).
     */
    public record SloConfig(String source, Map<String, String> data, ColocationStrategy colocationCluster, ObjectNode thresholdsCluster) {
        public String colocation() {
            return data.get(KoordinatorKeys.COLOCATION_CONFIG_KEY);
        }

        public String resourceThresholds() {
            return data.getOrDefault(SloConfigKey.RESOURCE_THRESHOLD.key(), "");
        }
    }

    private ClusterObjects() {
    }

    /** The shipped {@code conf/kubernetes/slo-controller-config.yaml}, with {@link #TIME_SCALED} laid over its colocation-config. */
    public static SloConfig shippedSloConfig(Path confDir) throws InvalidInputException {
        return sloConfig(confDir.resolve(SHIPPED));
    }

    /**
     * The ConfigMap {@code slo-controller-config} in {@code file} (YAML or JSON, one or several documents, or a List as
     * {@code kubectl get -o yaml} writes it), with {@link #TIME_SCALED} laid over its colocation-config. Every key the
     * broker and the koordlet read is checked as they check it; a problem names the file, the key and the value.
     */
    public static SloConfig sloConfig(Path file) throws InvalidInputException {
        ConfigMap found = null;
        if (!Files.isRegularFile(file)) {
            throw new InvalidInputException(file + (Files.exists(file) ? " is not a regular file" : " does not exist"));
        }
        try (InputStream in = Files.newInputStream(file)) {
            Object parsed = new KubernetesSerialization().unmarshal(in);
            List<?> objects = parsed instanceof List<?> documents ? documents
                    : parsed instanceof KubernetesList list ? list.getItems() : java.util.Collections.singletonList(parsed);
            for (Object o : objects) {
                if (o instanceof ConfigMap cm && cm.getMetadata() != null && KoordinatorKeys.SLO_CONFIGMAP_NAME.equals(cm.getMetadata().getName())) {
                    found = cm;
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new InvalidInputException(file + ": not a Kubernetes manifest: " + firstLine(e.getMessage()));
        }
        if (found == null || found.getData() == null || !found.getData().containsKey(KoordinatorKeys.COLOCATION_CONFIG_KEY)) {
            throw new InvalidInputException(file + " holds no ConfigMap " + KoordinatorKeys.SLO_CONFIGMAP_NAME + " with "
                    + KoordinatorKeys.COLOCATION_CONFIG_KEY);
        }
        Map<String, String> data = new LinkedHashMap<>();
        found.getData().forEach((k, v) -> data.put(k, v == null ? "" : v.trim()));
        return checked(file.toString(), file + ", ConfigMap " + KoordinatorKeys.SLO_CONFIGMAP_NAME + ", key ", data);
    }

    /**
     * {@code data} checked as the broker and the koordlet check it, with {@link #TIME_SCALED} laid over its
     * colocation-config; {@code where} + a key names a problem's place.
     */
    private static SloConfig checked(String source, String where, Map<String, String> given) throws InvalidInputException {
        Map<String, String> data = new LinkedHashMap<>(given);
        ColocationStrategy colocation;
        ObjectNode thresholds = null;
        try {
            colocation = ColocationConfigParser.parse(data.get(KoordinatorKeys.COLOCATION_CONFIG_KEY), where + KoordinatorKeys.COLOCATION_CONFIG_KEY)
                    .cluster();
            for (SloConfigKey key : SloConfigKey.values()) {
                SloStrategies strategies = SloConfigParser.parse(key, data.get(key.key()), where + key.key());
                if (key == SloConfigKey.RESOURCE_THRESHOLD) {
                    thresholds = strategies.cluster();
                }
            }
        } catch (InvalidConfigException e) {
            throw new InvalidInputException(e.getMessage());
        }
        data.put(KoordinatorKeys.COLOCATION_CONFIG_KEY, timeScaled(object(data.get(KoordinatorKeys.COLOCATION_CONFIG_KEY))).toString());
        return new SloConfig(source, Map.copyOf(data), colocation, thresholds);
    }

    /** The key's JSON object; an absent key is an empty one (the parsers above have refused anything else). */
    private static ObjectNode object(String json) throws InvalidInputException {
        try {
            return json == null || json.isBlank() ? JSON.createObjectNode() : (ObjectNode) JSON.readTree(json);
        } catch (IOException | ClassCastException e) {
            throw new InvalidInputException("not a JSON object: " + e.getMessage());
        }
    }

    private static ObjectNode timeScaled(ObjectNode colocation) {
        TIME_SCALED.forEach(colocation::put);
        return colocation;
    }

    /**
     * This configuration with one threshold set to {@code value}: {@code field} at the top of colocation-config, or in
     * resource-threshold-config's clusterStrategy; checked again, so a value the rules refuse is one line.
     */
    public static SloConfig withThreshold(SloConfig config, String configMapKey, String field, long value) throws InvalidInputException {
        Map<String, String> data = new LinkedHashMap<>(config.data());
        ObjectNode holder = object(data.get(configMapKey));
        ObjectNode target = configMapKey.equals(KoordinatorKeys.COLOCATION_CONFIG_KEY) ? holder
                : holder.has("clusterStrategy") && holder.get("clusterStrategy").isObject() ? (ObjectNode) holder.get("clusterStrategy")
                : holder.putObject("clusterStrategy");
        target.put(field, value);
        data.put(configMapKey, holder.toString());
        return checked(config.source() + " with " + field + "=" + value, config.source() + " with " + field + "=" + value + ", key ", data);
    }

    private static String firstLine(String message) {
        return message == null ? "unreadable" : message.lines().findFirst().orElse("");
    }

    public static void apply(KubernetesClient client, Path confDir, List<String> namespaces, SloConfig config) throws PartFailedException {
        ColocationObjects.installAdminObjects(client, confDir, namespaces, config.data());
    }
}
