package io.colocation.broker.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.quota.YarnLeaf;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ResourceManager's scheduler report as {@code GET /ws/v1/cluster/scheduler} gives it (the JSON a user saves with
 * {@code curl}), read for the CapacityScheduler's leaf queues: what each has allocated and has pending in the default
 * partition ({@code resources.resourceUsagesByPartition}, Hadoop's {@code PartitionResourcesInfo}), and the maximum
 * YARN holds it to now ({@code maxEffectiveCapacity}). Two encodings of Hadoop's objects are read: the documented one
 * ({@code scheduler.schedulerInfo}, {@code queues.queue}, {@code memory}; a list of one element may come as the
 * element) and the bean encoding a ResourceManager gives when its JSON provider is Jackson's, as the shaded
 * minicluster's does ({@code schedulerInfo}, {@code queues.queueInfoList}, {@code partitionResourceUsages},
 * {@code memorySize}).
 */
public final class YarnSchedulerReport {
    /**
     * One leaf queue.
     *
     * @param effectiveMaximum what YARN holds the queue to now, null when the report does not say (before Hadoop 3.1)
     */
    public record LeafQueue(String path, YarnLeaf.Amount allocated, YarnLeaf.Amount pending, YarnLeaf.Amount effectiveMaximum) {
    }

    private final Map<String, LeafQueue> leaves;

    private YarnSchedulerReport(Map<String, LeafQueue> leaves) {
        this.leaves = leaves;
    }

    /** Whether {@code doc} is such a report (an object with {@code scheduler.schedulerInfo} or {@code schedulerInfo}). */
    public static boolean is(JsonNode doc) {
        return doc.path("scheduler").has("schedulerInfo") || doc.has("schedulerInfo");
    }

    /** @throws InvalidInputException naming {@code where}: another scheduler's report, or a queue of another shape */
    public static YarnSchedulerReport read(JsonNode doc, String where) throws InvalidInputException {
        JsonNode info = doc.path("scheduler").has("schedulerInfo") ? doc.path("scheduler").path("schedulerInfo") : doc.path("schedulerInfo");
        String type = info.path("type").asText(info.path("schedulerType").asText(""));
        if (!type.toLowerCase(java.util.Locale.ROOT).replace(" ", "").contains("capacityscheduler")) {
            throw new InvalidInputException(where + ": the ResourceManager runs " + (type.isEmpty() ? "an unnamed scheduler" : type)
                    + "; a tree's YARN leaves are CapacityScheduler queues");
        }
        Map<String, LeafQueue> leaves = new TreeMap<>();
        visit(info, "root", where, leaves);
        return new YarnSchedulerReport(Collections.unmodifiableMap(leaves));
    }

    private static void visit(JsonNode queue, String path, String where, Map<String, LeafQueue> out) throws InvalidInputException {
        JsonNode queues = queue.path("queues");
        List<JsonNode> children = items(queues.has("queue") ? queues.path("queue") : queues.path("queueInfoList"));
        if (children.isEmpty() && !path.equals("root")) {
            out.put(path, leaf(queue, path, where));
            return;
        }
        for (JsonNode child : children) {
            String name = child.path("queueName").asText("");
            if (name.isEmpty()) {
                throw new InvalidInputException(where + ": a queue under " + path + " has no queueName");
            }
            String childPath = child.path("queuePath").asText("");
            visit(child, childPath.isEmpty() ? path + "." + name : childPath, where, out);
        }
    }

    private static LeafQueue leaf(JsonNode queue, String path, String where) throws InvalidInputException {
        JsonNode partition = null;
        JsonNode resources = queue.path("resources");
        for (JsonNode p : items(resources.has("resourceUsagesByPartition") ? resources.path("resourceUsagesByPartition")
                : resources.path("partitionResourceUsages"))) {
            if (p.path("partitionName").asText("").isEmpty()) {
                partition = p;
            }
        }
        String at = where + ": queue " + path;
        YarnLeaf.Amount allocated = amount(partition != null && partition.has("used") ? partition.path("used") : queue.path("resourcesUsed"),
                at + (partition != null && partition.has("used") ? " used" : " resourcesUsed"));
        YarnLeaf.Amount pending = partition == null ? YarnLeaf.Amount.NONE : amount(partition.path("pending"), at + " pending");
        YarnLeaf.Amount effective = queue.has("maxEffectiveCapacity") ? amount(queue.path("maxEffectiveCapacity"), at + " maxEffectiveCapacity")
                : null;
        return new LeafQueue(path, allocated, pending, effective);
    }

    private static YarnLeaf.Amount amount(JsonNode resource, String at) throws InvalidInputException {
        if (resource.isMissingNode() || resource.isNull()) {
            return YarnLeaf.Amount.NONE;
        }
        JsonNode memory = resource.has("memory") ? resource.path("memory") : resource.path("memorySize");
        JsonNode vcores = resource.has("vCores") ? resource.path("vCores") : resource.path("virtualCores");
        for (JsonNode v : List.of(memory, vcores)) {
            if (!v.isMissingNode() && (!v.canConvertToLong() || v.asLong() < 0)) {
                throw new InvalidInputException(at + ": memory and vCores must be whole numbers not below 0, not " + resource);
            }
        }
        return new YarnLeaf.Amount(vcores.asLong(0), memory.asLong(0));
    }

    private static List<JsonNode> items(JsonNode node) {
        List<JsonNode> out = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(out::add);
        } else if (node.isObject()) {
            out.add(node);
        }
        return out;
    }

    /** The leaf queues by path. */
    public Map<String, LeafQueue> leaves() {
        return leaves;
    }
}
