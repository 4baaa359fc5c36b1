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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out an {@link ObjectPlan} for one kind of per-node object: creates it (spec only, owned by its
 * Node so the garbage collector removes it with the node), replaces its spec (a JSON patch of
 * {@code /spec}, leaving the koordlet's status alone) and deletes it when its node is gone, the writes in parallel.
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

    /**
     * Carries out the plan's writes on {@code writers} (at 1,000s of nodes, the first round creates every node's object:
     * one at a time that takes minutes) and waits for all of them.
     */
    Outcome apply(ObjectPlan plan, ExecutorService writers) {
        String kind = type.getSimpleName();
        List<Future<String>> creates = new ArrayList<>();
        List<Future<String>> updates = new ArrayList<>();
        List<Future<String>> deletes = new ArrayList<>();
        for (ObjectPlan.Write w : plan.creates()) {
            creates.add(writers.submit(() -> create(w, kind)));
        }
        for (ObjectPlan.Write w : plan.updates()) {
            updates.add(writers.submit(() -> update(w, kind)));
        }
        for (String name : plan.deletes()) {
            deletes.add(writers.submit(() -> delete(name, kind)));
        }
        int[] failed = new int[1];
        String[] lastError = new String[1];
        int created = done(creates, failed, lastError);
        int updated = done(updates, failed, lastError);
        int deleted = done(deletes, failed, lastError);
        if (created + updated + deleted > 0) {
            LOG.info("{}: {} created, {} updated, {} deleted (nodes gone){}", kind, created, updated, deleted,
                    failed[0] > 0 ? ", " + failed[0] + " failed (" + lastError[0] + ")" : "");
        }
        return new Outcome(created, updated, deleted, failed[0], lastError[0]);
    }

    /** Waits for the writes: how many were done; the failures counted into {@code failed}, the last one kept. */
    private static int done(List<Future<String>> writes, int[] failed, String[] lastError) {
        int ok = 0;
        for (Future<String> f : writes) {
            String error;
            try {
                error = f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                error = "interrupted";
            } catch (ExecutionException e) {
                error = String.valueOf(e.getCause());
            }
            if (error == null) {
                ok++;
            } else if (!error.isEmpty()) {
                failed[0]++;
                lastError[0] = error;
            }
        }
        return ok;
    }

    /** null: created; empty: someone created it meanwhile (the next pass compares its spec); else the error. */
    private String create(ObjectPlan.Write w, String kind) {
        try {
            ObjectNode object = JSON.valueToTree(withOwner(blank.get(), w.node()));
            object.set("spec", w.spec());
            client.resources(type).resource(JSON.treeToValue(object, type)).create();
            return null;
        } catch (KubernetesClientException | com.fasterxml.jackson.core.JsonProcessingException e) {
            if (e instanceof KubernetesClientException k && k.getCode() == 409) {
                return "";
            }
            return "cannot create " + kind + " " + w.node().getMetadata().getName() + ": " + e.getMessage();
        }
    }

    private String update(ObjectPlan.Write w, String kind) {
        String name = w.node().getMetadata().getName();
        ArrayNode patch = JSON.createArrayNode();
        patch.addObject().put("op", "add").put("path", "/spec").set("value", w.spec());
        try {
            T stub = blank.get();
            stub.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
            Patches.json(client, stub, JSON.writeValueAsString(patch));
            return null;
        } catch (KubernetesClientException | com.fasterxml.jackson.core.JsonProcessingException e) {
            return "cannot update the spec of " + kind + " " + name + ": " + e.getMessage();
        }
    }

    private String delete(String name, String kind) {
        try {
            client.resources(type).withName(name).delete();
            return null;
        } catch (KubernetesClientException e) {
            return "cannot delete " + kind + " " + name + " of a deleted node: " + e.getMessage();
        }
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
