package io.colocation.model.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.model.KubeTime;
import io.colocation.model.ResourceLists;
import io.colocation.model.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The graceful route of a CPU eviction that chose YARN containers: the koordlet writes its node's
 * {@link YarnReleaseResource} ({@code colocation.io/v1alpha1 YarnRelease}, named after the node) and the broker holds
 * YARN's grant on the node at most {@code limit} until {@code expires}, so the ResourceManager plugin preempts the
 * excess (exit status PREEMPTED, no task failure). The koordlet writes it, the broker reads it; this class is the one
 * format of its spec both use:
 * <pre>{"limit": {"cpu": "1500m", "memory": "2147483648"}, "expires": "2026-11-23T10:00:40Z",
 *  "reason": "BECPUEvict: ...", "containers": ["container_..."]}</pre>
 * {@code limit} is absolute (YARN's allocation on the node minus what the victims hold, in the ledger's units:
 * 1000m per vcore, bytes), so a preemption that already happened is not asked for again. The release is an object of
 * the node agent's own, not an annotation of its Node, so the agent needs no right to change Nodes.
 */
public record YarnRelease(Resources limit, Instant expires, String reason, List<String> containers) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public YarnRelease {
        containers = List.copyOf(containers);
    }

    /** Whether the broker still holds YARN to the limit at {@code now}. */
    public boolean activeAt(Instant now) {
        return now.isBefore(expires);
    }

    /** The spec as the koordlet writes it. */
    public ObjectNode toSpec() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode l = root.putObject("limit");
        l.put("cpu", limit.cpuMilli() + "m");
        l.put("memory", Long.toString(limit.memoryBytes()));
        root.put("expires", expires.toString());
        root.put("reason", reason);
        ArrayNode ids = root.putArray("containers");
        containers.forEach(ids::add);
        return root;
    }

    /**
     * One text for one release, whatever order or notation its spec was written in (what the node-agent webhook stamps
     * and the broker verifies).
     */
    public String canonical() {
        return toSpec().toString();
    }

    /**
     * @param where names the object, for errors
     * @throws InvalidInputException naming the object and the field that is wrong
     */
    public static YarnRelease parse(JsonNode spec, String where) throws InvalidInputException {
        String at = where + ": spec";
        if (spec == null || !spec.isObject()) {
            throw new InvalidInputException(at + " must be an object with limit and expires");
        }
        JsonNode limitNode = spec.get("limit");
        if (limitNode == null || !limitNode.has("cpu") || !limitNode.has("memory")) {
            throw new InvalidInputException(at + ": limit must give cpu and memory");
        }
        Resources limit = ResourceLists.cpuMemory(limitNode, at + " limit");
        JsonNode expiresNode = spec.get("expires");
        if (expiresNode == null || !expiresNode.isTextual()) {
            throw new InvalidInputException(at + ": expires must be an RFC 3339 time such as 2026-11-21T08:00:00Z");
        }
        Instant expires = KubeTime.parse(expiresNode.textValue(), at + ": expires");
        List<String> ids = new ArrayList<>();
        for (JsonNode id : spec.path("containers")) {
            ids.add(id.asText());
        }
        return new YarnRelease(limit, expires, spec.path("reason").asText(""), ids);
    }
}
