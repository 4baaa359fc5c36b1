package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * One {@code AdmissionReview} (admission.k8s.io v1 or v1beta1) answered the way koord-manager's pod-mutating handler
 * answers it (KOORDINATOR-COMPAT.md §14.2): anything but a pod create is allowed unchanged; a pod create runs
 * {@link PodMutation} and is answered with a JSON patch, allowed without a patch when nothing changed, or refused with
 * status 500 and Koordinator's text; a request whose object is not a Pod is refused with 400. A pure function of the
 * review and the cluster the webhook reads, so the server only moves bytes.
 */
public final class AdmissionReviews {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /**
     * The answer and what the server logs about it.
     *
     * @param decision {@code unchanged}, {@code mutated}, {@code denied} or {@code not a pod create}
     * @param pod      {@code namespace/name} (or {@code generateName*}) of the pod, empty when the request has none
     */
    public record Answer(ObjectNode review, String decision, String pod, String message, List<String> notes) {
    }

    private AdmissionReviews() {
    }

    /** @throws InvalidInputException when the body is no AdmissionReview with a request and a uid (answered HTTP 400) */
    public static Answer answer(JsonNode review, PodMutation.Cluster cluster, PodMutation.Gates gates, PodMutation.Draws draws)
            throws InvalidInputException {
        String apiVersion = review.path("apiVersion").asText("");
        if (!apiVersion.equals("admission.k8s.io/v1") && !apiVersion.equals("admission.k8s.io/v1beta1")
                || !"AdmissionReview".equals(review.path("kind").asText())) {
            throw new InvalidInputException("the body is not an admission.k8s.io/v1 or v1beta1 AdmissionReview");
        }
        JsonNode request = review.path("request");
        String uid = request.path("uid").asText("");
        if (!request.isObject() || uid.isEmpty()) {
            throw new InvalidInputException("the AdmissionReview has no request.uid");
        }
        ObjectNode response = JSON.objectNode().put("uid", uid);
        ObjectNode out = JSON.objectNode().put("apiVersion", apiVersion).put("kind", "AdmissionReview");
        out.set("response", response);
        JsonNode resource = request.path("resource");
        boolean pods = resource.path("group").asText("").isEmpty() && resource.path("resource").asText("").equals("pods")
                && request.path("subResource").asText("").isEmpty();
        JsonNode object = request.path("object");
        String namespace = request.path("namespace").asText("");
        String pod = podName(object, namespace);
        if (!pods || !"CREATE".equals(request.path("operation").asText())) {
            response.put("allowed", true);
            return new Answer(out, "not a pod create", pod, "", List.of());
        }
        try {
            if (!object.isObject()) {
                throw new InvalidInputException("request.object: missing or not an object");
            }
            SubmittedPod.check(object, "request.object");
        } catch (InvalidInputException e) {
            refuse(response, 400, e.getMessage());
            return new Answer(out, "denied", pod, e.getMessage(), List.of());
        }
        PodMutation.Result result;
        try {
            result = PodMutation.mutate((ObjectNode) object, namespace, cluster, gates, draws);
        } catch (PodMutation.Denied e) {
            refuse(response, 500, e.getMessage());
            return new Answer(out, "denied", pod, e.getMessage(), List.of());
        }
        response.put("allowed", true);
        if (!result.changed()) {
            return new Answer(out, "unchanged", pod, "", result.notes());
        }
        // add/remove/replace only, as Koordinator's jsonpatch.CreatePatch writes them.
        JsonNode patch = JsonDiff.asJson(object, result.pod(), DiffFlags.dontNormalizeOpIntoMoveAndCopy());
        response.put("patchType", "JSONPatch");
        response.put("patch", Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
        return new Answer(out, "mutated", pod, patch.toString(), result.notes());
    }

    private static void refuse(ObjectNode response, int code, String message) {
        response.put("allowed", false);
        response.putObject("status").put("code", code).put("message", message);
    }

    private static String podName(JsonNode object, String namespace) {
        JsonNode metadata = object.path("metadata");
        String name = metadata.path("name").asText("");
        if (name.isEmpty() && !metadata.path("generateName").asText("").isEmpty()) {
            name = metadata.path("generateName").asText() + "*";
        }
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
