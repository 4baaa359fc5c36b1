package io.colocation.broker.slo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.model.slo.KoordinatorResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.colocation.kube.client.Patches;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out an {@link ObjectPlan} for one kind of per-node object: creates it (spec only, owned by its
 * Node so the garbage collector removes it with the node), replaces its spec (a JSON patch of
 * {@code /spec}, leaving the koordlet's status alone) and deletes it when its node is gone.
 */
final class SloObjectWriter<T extends KoordinatorResource> {
    private static final Logger LOG = LoggerFactory.getLogger(SloObjectWriter.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final Class<T> type;
    private final Supplier<T> blank;

    /** What one plan's execution did. */
    record Outcome(int created, int updated, int deleted, int failed, String lastError) {
    }

    SloObjectWriter(KubernetesClient client, Class<T> type, Supplier<T> blank) {
        this.client = client;
        this.type = type;
        this.blank = blank;
    }

    Outcome apply(ObjectPlan plan) {
        int created = 0;
        int updated = 0;
        int deleted = 0;
        int failed = 0;
        String lastError = null;
        String kind = type.getSimpleName();
        for (ObjectPlan.Write w : plan.creates()) {
            String name = w.node().getMetadata().getName();
            try {
                ObjectNode object = JSON.valueToTree(withOwner(blank.get(), w.node()));
                object.set("spec", w.spec());
                client.resources(type).resource(JSON.treeToValue(object, type)).create();
                created++;
            } catch (KubernetesClientException | com.fasterxml.jackson.core.JsonProcessingException e) {
                if (e instanceof KubernetesClientException k && k.getCode() == 409) {
                    continue; // someone created it meanwhile: the next pass compares its spec
                }
                failed++;
                lastError = "cannot create " + kind + " " + name + ": " + e.getMessage();
            }
        }
        for (ObjectPlan.Write w : plan.updates()) {
            String name = w.node().getMetadata().getName();
            ArrayNode patch = JSON.createArrayNode();
            patch.addObject().put("op", "add").put("path", "/spec").set("value", w.spec());
            try {
                T stub = blank.get();
                stub.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
                Patches.json(client, stub, JSON.writeValueAsString(patch));
                updated++;
            } catch (KubernetesClientException | com.fasterxml.jackson.core.JsonProcessingException e) {
                failed++;
                lastError = "cannot update the spec of " + kind + " " + name + ": " + e.getMessage();
            }
        }
        for (String name : plan.deletes()) {
            try {
                client.resources(type).withName(name).delete();
                deleted++;
            } catch (KubernetesClientException e) {
                failed++;
                lastError = "cannot delete " + kind + " " + name + " of a deleted node: " + e.getMessage();
            }
        }
        if (created + updated + deleted > 0) {
            LOG.info("{}: {} created, {} updated, {} deleted (nodes gone){}", kind, created, updated, deleted,
                    failed > 0 ? ", " + failed + " failed (" + lastError + ")" : "");
        }
        return new Outcome(created, updated, deleted, failed, lastError);
    }

    private static <T extends KoordinatorResource> T withOwner(T object, Node node) {
        object.getMetadata().setName(node.getMetadata().getName());
        object.getMetadata().setOwnerReferences(java.util.List.of(new OwnerReferenceBuilder().withApiVersion("v1").withKind("Node")
                .withName(node.getMetadata().getName()).withUid(node.getMetadata().getUid()).build()));
        return object;
    }

    /** A spec as the plan compares it (a JSON null when there is none). */
    static JsonNode specOf(Object spec) {
        return spec == null ? JSON.nullNode() : JSON.valueToTree(spec);
    }
}
