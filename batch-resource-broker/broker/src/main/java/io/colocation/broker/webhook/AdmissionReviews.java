package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.review.AdmissionEnvelope;
import java.util.List;

/**
 * One {@code AdmissionReview} (admission.k8s.io v1 or v1beta1) answered the way koord-manager's pod-mutating handler
 * answers it (docs/koordinator-compatibility.md §14.2): anything but a pod create is allowed unchanged; a pod create runs
 * {@link PodMutation} and is answered with a JSON patch, allowed without a patch when nothing changed, or refused with
 * status 500 and Koordinator's text; a request whose object is not a Pod is refused with 400. A pure function of the
 * review and the cluster the webhook reads, so the server only moves bytes.
 */
public final class AdmissionReviews {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AdmissionReviews.class);

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
        AdmissionEnvelope envelope = AdmissionEnvelope.open(review);
        JsonNode request = envelope.request();
        JsonNode object = request.path("object");
        String namespace = request.path("namespace").asText("");
        String pod = podName(object, namespace);
        if (!envelope.isFor("", "pods", "") || !"CREATE".equals(envelope.operation())) {
            return new Answer(envelope.allow(), "not a pod create", pod, "", List.of());
        }
        try {
            if (!object.isObject()) {
                throw new InvalidInputException("request.object: missing or not an object");
            }
            SubmittedPod.check(object, "request.object");
        } catch (InvalidInputException e) {
            return new Answer(envelope.refuse(400, e.getMessage()), "denied", pod, e.getMessage(), List.of());
        }
        PodMutation.Result result;
        try {
            result = PodMutation.mutate((ObjectNode) object, namespace, cluster, gates, draws);
        } catch (PodMutation.Denied e) {
            return new Answer(envelope.refuse(e.code(), e.getMessage()), "denied", pod, e.getMessage(), List.of());
        } catch (RuntimeException e) {
            // A bug of ours must not become an error page: the pod is refused with a line the user can report.
            String message = "the colocation webhook failed on this pod (" + e + "); the broker's log has the details";
            LOG.error("webhook: pod {} failed the mutation", pod, e);
            return new Answer(envelope.refuse(500, message), "denied", pod, message, List.of());
        }
        if (!result.changed()) {
            return new Answer(envelope.allow(), "unchanged", pod, "", result.notes());
        }
        JsonNode patch = JsonPatches.diff(object, result.pod());
        return new Answer(envelope.allowPatched(patch), "mutated", pod, patch.toString(), result.notes());
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
