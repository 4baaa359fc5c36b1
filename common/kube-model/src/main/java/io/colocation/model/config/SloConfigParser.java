package io.colocation.model.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.PriorityClass;
import io.colocation.model.labels.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses one {@code slo-controller-config} key ({@link SloConfigKey}) into {@link SloStrategies}: the
 * cluster strategy and the node strategies merged onto it as Koordinator's {@code MergeCfg} does
 * (§11.2), each merged strategy checked against the key's rules. Every problem names the key's field and
 * the value; with any problem the key is refused as a whole (the caller keeps the last good one).
 */
public final class SloConfigParser {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> PROFILE_FIELDS = Set.of("name", "nodeSelector");
    private static final Set<String> CGROUP_BASES = Set.of("CgroupRoot", "Kubepods", "KubepodsBurstable", "KubepodsBesteffort");
    private static final Set<String> QOS_NAMES = Set.of("LSE", "LSR", "LS", "BE", "SYSTEM", "NONE");

    private SloConfigParser() {
    }

    /** {@code json} null or blank: the key's defaults. */
    public static SloStrategies parse(SloConfigKey key, String json, String source) throws InvalidConfigException {
        if (json == null || json.isBlank()) {
            return SloStrategies.defaults(key);
        }
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidConfigException(source, List.of("malformed JSON: " + e.getOriginalMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidConfigException(source, List.of("must be a JSON object, found " + (root == null ? "nothing" : root.getNodeType())));
        }
        List<String> problems = new ArrayList<>();
        SloStrategies parsed = switch (key.shape()) {
            case CLUSTER_AND_NODE_STRATEGIES -> strategies(key, root, "clusterStrategy", "nodeStrategies", problems);
            case TOP_AND_NODE_CONFIGS -> strategies(key, root, null, "nodeConfigs", problems);
            case APPLICATIONS -> applications(root, problems);
        };
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(source, problems);
        }
        return parsed;
    }

    /**
     * The problems of one strategy as a NodeSLO carries it (already merged over the defaults), by the same rules a
     * ConfigMap's are checked with: a NodeSLO written by hand is held to them where it is read (the koordlet).
     */
    public static List<String> problems(SloConfigKey key, JsonNode strategy, String where) {
        List<String> problems = new java.util.ArrayList<>();
        SloRules.check(strategy, key.rules(), key.order(), where + ".", problems);
        return problems;
    }

    /**
     * The problems of each field alone (types and ranges), without the rules that order two fields (a threshold above
     * its lower bound): Koordinator's koordlet checks those in the strategy that uses the pair, which skips itself for
     * the round while every other strategy runs.
     */
    public static List<String> valueProblems(SloConfigKey key, JsonNode strategy, String where) {
        List<String> problems = new java.util.ArrayList<>();
        SloRules.check(strategy, key.rules(), List.of(), where + ".", problems);
        return problems;
    }

    private static SloStrategies strategies(SloConfigKey key, JsonNode root, String clusterField, String nodesField,
            List<String> problems) {
        JsonNode clusterJson = clusterField == null ? withoutProfile(root, nodesField) : root.get(clusterField);
        if (clusterJson != null && !clusterJson.isNull() && !clusterJson.isObject()) {
            problems.add(clusterField + " must be an object");
            clusterJson = null;
        }
        ObjectNode cluster = JsonMerge.merge(key.defaults(), clusterJson);
        SloRules.check(cluster, key.rules(), key.order(), clusterField == null ? "" : clusterField + ".", problems);
        List<SloStrategies.NodeStrategy> nodes = new ArrayList<>();
        JsonNode list = root.get(nodesField);
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                problems.add(nodesField + " must be a list");
            } else {
                for (int i = 0; i < list.size(); i++) {
                    JsonNode entry = list.get(i);
                    String prefix = nodesField + "[" + i + "].";
                    if (!entry.isObject()) {
                        problems.add(nodesField + "[" + i + "] must be an object");
                        continue;
                    }
                    LabelSelector selector = ColocationConfigParser.selector(entry.get("nodeSelector"), prefix + "nodeSelector", problems);
                    ObjectNode merged = JsonMerge.merge(cluster, withoutProfile(entry, null));
                    SloRules.check(merged, key.rules(), key.order(), prefix, problems);
                    nodes.add(new SloStrategies.NodeStrategy(entry.path("name").asText(""), selector, merged));
                }
            }
        }
        return new SloStrategies(key, cluster, List.copyOf(nodes));
    }

    private static SloStrategies applications(JsonNode root, List<String> problems) {
        ObjectNode cluster = JSON.createObjectNode();
        cluster.set("applications", applicationList(root.get("applications"), "applications", problems));
        List<SloStrategies.NodeStrategy> nodes = new ArrayList<>();
        JsonNode list = root.get("nodeConfigs");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                problems.add("nodeConfigs must be a list");
            } else {
                for (int i = 0; i < list.size(); i++) {
                    JsonNode entry = list.get(i);
                    String prefix = "nodeConfigs[" + i + "].";
                    LabelSelector selector = ColocationConfigParser.selector(entry.get("nodeSelector"), prefix + "nodeSelector", problems);
                    ObjectNode own = JSON.createObjectNode();
                    // No merge: a node entry's list replaces the cluster's.
                    own.set("applications", applicationList(entry.get("applications"), prefix + "applications", problems));
                    nodes.add(new SloStrategies.NodeStrategy(entry.path("name").asText(""), selector, own));
                }
            }
        }
        return new SloStrategies(SloConfigKey.HOST_APPLICATION, cluster, List.copyOf(nodes));
    }

    private static JsonNode applicationList(JsonNode list, String where, List<String> problems) {
        if (list == null || list.isNull()) {
            return JSON.createArrayNode();
        }
        if (!list.isArray()) {
            problems.add(where + " must be a list");
            return JSON.createArrayNode();
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode app = list.get(i);
            String at = where + "[" + i + "]";
            if (!app.path("name").isTextual() || app.path("name").textValue().isEmpty()) {
                problems.add(at + ".name is required");
            }
            JsonNode priority = app.get("priority");
            if (priority != null && !priority.isNull() && (!priority.isTextual()
                    || (PriorityClass.fromName(priority.textValue()) == PriorityClass.NONE && !"koord-none".equals(priority.textValue())
                    && !priority.textValue().isEmpty()))) {
                problems.add(at + ".priority=" + priority + " must be koord-prod, koord-mid, koord-batch or koord-free");
            }
            JsonNode qos = app.get("qos");
            if (qos != null && !qos.isNull() && (!qos.isTextual() || !QOS_NAMES.contains(qos.textValue()))) {
                problems.add(at + ".qos=" + qos + " must be one of LSE, LSR, LS, BE, SYSTEM, NONE");
            }
            JsonNode base = app.path("cgroupPath").get("base");
            if (base != null && !base.isNull() && (!base.isTextual() || !CGROUP_BASES.contains(base.textValue()))) {
                problems.add(at + ".cgroupPath.base=" + base + " must be one of CgroupRoot, Kubepods, KubepodsBurstable, KubepodsBesteffort");
            }
        }
        return list.deepCopy();
    }

    private static JsonNode withoutProfile(JsonNode node, String alsoDrop) {
        ObjectNode copy = ((ObjectNode) node).deepCopy();
        copy.remove(PROFILE_FIELDS);
        if (alsoDrop != null) {
            copy.remove(alsoDrop);
        }
        return copy;
    }
}
