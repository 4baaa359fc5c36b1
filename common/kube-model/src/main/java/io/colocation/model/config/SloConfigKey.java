package io.colocation.model.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The {@code slo-controller-config} keys besides {@code colocation-config} (docs/koordinator-compatibility.md §6, §11.2):
 * each is parsed on its own, with its defaults and its rules; a bad key does not affect the others.
 */
public enum SloConfigKey {
    RESOURCE_THRESHOLD("resource-threshold-config", "resourceUsedThresholdWithBE", Shape.CLUSTER_AND_NODE_STRATEGIES,
            "{\"enable\":false,\"cpuSuppressThresholdPercent\":65,\"cpuSuppressPolicy\":\"cpuset\","
                    + "\"memoryEvictThresholdPercent\":70,\"cpuEvictPolicy\":\"evictByRealLimit\"}",
            SloRules.THRESHOLD, SloRules.THRESHOLD_ORDER),
    /** Absent: {@code {}}; the manager writes no class defaults (the koordlet applies them). */
    RESOURCE_QOS("resource-qos-config", "resourceQOSStrategy", Shape.CLUSTER_AND_NODE_STRATEGIES, "{}", SloRules.QOS,
            SloRules.QOS_ORDER),
    CPU_BURST("cpu-burst-config", "cpuBurstStrategy", Shape.CLUSTER_AND_NODE_STRATEGIES,
            "{\"policy\":\"none\",\"cpuBurstPercent\":1000,\"cfsQuotaBurstPercent\":300,\"cfsQuotaBurstPeriodSeconds\":-1,"
                    + "\"sharePoolThresholdPercent\":50}",
            SloRules.CPU_BURST, List.of()),
    SYSTEM("system-config", "systemStrategy", Shape.CLUSTER_AND_NODE_STRATEGIES, "{\"totalNetworkBandwidth\":\"0\"}",
            SloRules.SYSTEM, List.of()),
    HOST_APPLICATION("host-application-config", "hostApplications", Shape.APPLICATIONS, "{\"applications\":[]}", List.of(),
            List.of()),
    /** Read by the calculation's CPU normalization; not part of the NodeSLO. */
    CPU_NORMALIZATION("cpu-normalization-config", null, Shape.TOP_AND_NODE_CONFIGS, "{\"enable\":false}",
            List.of(SloRules.Rule.bool("enable")), List.of());

    /** How the key's JSON is laid out. */
    enum Shape {
        /** {@code {"clusterStrategy": {...}, "nodeStrategies": [{"name", "nodeSelector", ...}]}} */
        CLUSTER_AND_NODE_STRATEGIES,
        /** {@code {"applications": [...], "nodeConfigs": [{"name", "nodeSelector", "applications": [...]}]}} */
        APPLICATIONS,
        /** {@code {<fields>, "nodeConfigs": [{"name", "nodeSelector", <fields>}]}} */
        TOP_AND_NODE_CONFIGS
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String key;
    private final String nodeSloField;
    private final Shape shape;
    private final String defaults;
    private final List<SloRules.Rule> rules;
    private final List<SloRules.Above> order;

    SloConfigKey(String key, String nodeSloField, Shape shape, String defaults, List<SloRules.Rule> rules, List<SloRules.Above> order) {
        this.key = key;
        this.nodeSloField = nodeSloField;
        this.shape = shape;
        this.defaults = defaults;
        this.rules = rules;
        this.order = order;
    }

    /** The ConfigMap data key. */
    public String key() {
        return key;
    }

    /** The NodeSLO spec field it renders, null when none. */
    public String nodeSloField() {
        return nodeSloField;
    }

    Shape shape() {
        return shape;
    }

    List<SloRules.Rule> rules() {
        return rules;
    }

    List<SloRules.Above> order() {
        return order;
    }

    /** What applies when the key is absent. */
    public ObjectNode defaults() {
        try {
            return (ObjectNode) JSON.readTree(defaults);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("defaults of " + key, e);
        }
    }
}
