package io.colocation.broker.kube;

import io.colocation.kube.client.EventRecorder;
import io.colocation.kube.client.Patches;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.KoordinatorKeys;
import io.colocation.api.PriorityClass;
import io.colocation.api.ResourceNames;
import io.colocation.model.Resources;
import io.colocation.model.node.NodeAnnotations;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the Kubernetes side of a node's ledger: Batch and Mid into {@code status.capacity} and
 * {@code status.allocatable} (a status update carrying the node's resourceVersion, retried on conflict),
 * then Koordinator's {@code originExtendedAllocatable} and {@code thirdPartyAllocations} annotations (a
 * merge patch of those two keys, keeping entries of other writers).
 */
public final class NodeStatusPublisher implements KubernetesSide {
    private static final Logger LOG = LoggerFactory.getLogger(NodeStatusPublisher.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String YARN_ALLOCATION_NAME = "hadoop-yarn";
    private static final int MAX_CONFLICT_RETRIES = 5;

    private final KubernetesClient client;

    private final EventRecorder events;

    public NodeStatusPublisher(KubernetesClient client, EventRecorder events) {
        this.client = client;
        this.events = events;
    }

    /**
     * Publishes to {@code nodeName}, starting from {@code cached} (the informer's copy; a conflict re-reads
     * the node). Returns the written node.
     */
    @Override
    public Node publish(String nodeName, Node cached, BatchPublication p) throws IOException {
        Node base = cached != null ? cached : client.nodes().withName(nodeName).get();
        if (base == null) {
            throw new IOException("Node " + nodeName + " no longer exists");
        }
        // What grows in the origin goes out before the status, what shrinks after it: a reader never sees a grant the
        // origin annotation does not cover.
        Resources annotated = annotatedOrigin(base);
        Resources covering = annotated == null ? p.origin() : annotated.max(p.origin());
        if (!covering.equals(annotated)) {
            Node written = annotate(nodeName, base, new BatchPublication(p.batch(), p.mid(), covering, p.yarnUsed()));
            base = written != null ? written : base;
        }
        Node written = null;
        for (int attempt = 0; written == null; attempt++) {
            if (base == null) {
                base = client.nodes().withName(nodeName).get();
                if (base == null) {
                    throw new IOException("Node " + nodeName + " no longer exists");
                }
            }
            Node updated = withResources(base, p);
            try {
                written = client.nodes().resource(updated).updateStatus();
            } catch (KubernetesClientException e) {
                if (e.getCode() == 409 && attempt < MAX_CONFLICT_RETRIES) {
                    LOG.debug("Node {} changed meanwhile (resourceVersion {}), retrying", nodeName,
                            base.getMetadata().getResourceVersion());
                    base = null;
                    continue;
                }
                throw new IOException("cannot update the status of Node " + nodeName + ": " + e.getMessage(), e);
            }
        }
        Node annotatedNode = annotate(nodeName, written, p);
        return annotatedNode != null ? annotatedNode : written;
    }

    @Override
    public void publishOrigin(String nodeName, BatchPublication p) throws IOException {
        mergeAnnotations(nodeName, Map.of(KoordinatorKeys.ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE, originExtendedAllocatable(null, p.origin())));
    }

    /** Writes the annotations that differ from {@code node}'s (a merge patch of those keys); null when nothing changed. */
    private Node annotate(String nodeName, Node node, BatchPublication p) throws IOException {
        Map<String, String> annotations = annotations(node, p);
        return annotations.isEmpty() ? null : mergeAnnotations(nodeName, annotations);
    }

    /** A merge patch of {@code annotations} onto the Node; returns the Node as written. */
    private Node mergeAnnotations(String nodeName, Map<String, String> annotations) throws IOException {
        ObjectNode patch = JSON.createObjectNode();
        ObjectNode a = patch.putObject("metadata").putObject("annotations");
        annotations.forEach(a::put);
        try {
            return Patches.merge(client, new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata().withName(nodeName).endMetadata()
                    .build(), JSON.writeValueAsString(patch));
        } catch (KubernetesClientException e) {
            throw new IOException("cannot annotate Node " + nodeName + ": " + e.getMessage(), e);
        }
    }

    /** The Batch the node's origin annotation shows; null when it has none or it cannot be read. */
    public static Resources annotatedOrigin(Node node) {
        Map<String, String> a = node == null || node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        return NodeAnnotations.originBatch(a == null ? null : a.get(KoordinatorKeys.ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE));
    }

    @Override
    public void warn(String nodeName, String reason, String message) {
        events.warning(new EventRecorder.Involved("v1", "Node", null, nodeName, null), reason, message, null);
    }

    /** The node with the publication's Batch and Mid in its capacity and allocatable (a copy; the NodeStatus write). */
    public static Node withResources(Node node, BatchPublication p) {
        Node copy = new io.fabric8.kubernetes.api.model.NodeBuilder(node).build();
        Map<String, Quantity> capacity = new HashMap<>(copy.getStatus().getCapacity() == null ? Map.of() : copy.getStatus().getCapacity());
        Map<String, Quantity> allocatable = new HashMap<>(copy.getStatus().getAllocatable() == null ? Map.of() : copy.getStatus().getAllocatable());
        for (Map<String, Quantity> list : java.util.List.of(capacity, allocatable)) {
            put(list, ResourceNames.BATCH_CPU, ResourceNames.BATCH_MEMORY, p.batch());
            put(list, ResourceNames.MID_CPU, ResourceNames.MID_MEMORY, p.mid());
        }
        copy.getStatus().setCapacity(capacity);
        copy.getStatus().setAllocatable(allocatable);
        return copy;
    }

    private static void put(Map<String, Quantity> list, String cpu, String memory, Resources value) {
        if (value == null) {
            list.remove(cpu);
            list.remove(memory);
        } else {
            list.put(cpu, new Quantity(Long.toString(value.cpuMilli())));
            list.put(memory, new Quantity(Long.toString(value.memoryBytes())));
        }
    }

    /** The two annotations as they should read, only those that differ from the node's. */
    public static Map<String, String> annotations(Node node, BatchPublication p) throws IOException {
        Map<String, String> current = node.getMetadata().getAnnotations() == null ? Map.of() : node.getMetadata().getAnnotations();
        Map<String, String> changed = new HashMap<>();
        String origin = originExtendedAllocatable(current.get(KoordinatorKeys.ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE), p.origin());
        if (!origin.equals(current.get(KoordinatorKeys.ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE))) {
            changed.put(KoordinatorKeys.ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE, origin);
        }
        String thirdParty = thirdPartyAllocations(current.get(KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS), p.yarnUsed());
        if (!thirdParty.equals(current.get(KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS))) {
            changed.put(KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS, thirdParty);
        }
        return changed;
    }

    /** Koordinator's format; keys other than batch-cpu/batch-memory already there are kept. */
    static String originExtendedAllocatable(String existing, Resources origin) throws IOException {
        ObjectNode root = objectOrEmpty(existing);
        ObjectNode resources = root.get("resources") instanceof ObjectNode o ? o : root.putObject("resources");
        resources.put(ResourceNames.BATCH_CPU, Long.toString(origin.cpuMilli()));
        resources.put(ResourceNames.BATCH_MEMORY, Long.toString(origin.memoryBytes()));
        return JSON.writeValueAsString(root);
    }

    /** Sets the {@code hadoop-yarn} entry (priority {@code koord-batch}), keeping other writers' entries. */
    static String thirdPartyAllocations(String existing, Resources yarnUsed) throws IOException {
        ObjectNode root = objectOrEmpty(existing);
        ArrayNode allocations = JSON.createArrayNode();
        JsonNode old = root.path("allocations");
        for (JsonNode a : old) {
            if (!YARN_ALLOCATION_NAME.equals(a.path("name").asText())) {
                allocations.add(a);
            }
        }
        ObjectNode yarn = allocations.addObject();
        yarn.put("name", YARN_ALLOCATION_NAME);
        yarn.put("priority", PriorityClass.BATCH.koordName());
        ObjectNode r = yarn.putObject("resources");
        r.put(ResourceNames.BATCH_CPU, Long.toString(yarnUsed.cpuMilli()));
        r.put(ResourceNames.BATCH_MEMORY, Long.toString(yarnUsed.memoryBytes()));
        root.set("allocations", allocations);
        return JSON.writeValueAsString(root);
    }

    private static ObjectNode objectOrEmpty(String json) {
        if (json == null || json.isBlank()) {
            return JSON.createObjectNode();
        }
        try {
            JsonNode n = JSON.readTree(json);
            if (n instanceof ObjectNode o) {
                return o;
            }
        } catch (IOException malformed) {
            LOG.warn("replacing a malformed node annotation: {}", json);
        }
        return JSON.createObjectNode();
    }
}
