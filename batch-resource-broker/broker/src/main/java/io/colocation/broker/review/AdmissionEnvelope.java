package io.colocation.broker.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * One {@code AdmissionReview} (admission.k8s.io v1 or v1beta1) and its answer, as every webhook of the broker reads and
 * writes it: the request, and a response of the same apiVersion carrying the request's uid that the caller allows,
 * refuses (a status code and message, which the API server shows the user) or patches.
 */
public final class AdmissionEnvelope {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final JsonNode request;
    private final ObjectNode review;
    private final ObjectNode response;

    private AdmissionEnvelope(JsonNode request, ObjectNode review, ObjectNode response) {
        this.request = request;
        this.review = review;
        this.response = response;
    }

    /** @throws InvalidInputException when the body is no AdmissionReview with a request and a uid (answered HTTP 400) */
    public static AdmissionEnvelope open(JsonNode body) throws InvalidInputException {
        String apiVersion = body.path("apiVersion").asText("");
        if (!apiVersion.equals("admission.k8s.io/v1") && !apiVersion.equals("admission.k8s.io/v1beta1")
                || !"AdmissionReview".equals(body.path("kind").asText())) {
            throw new InvalidInputException("the body is not an admission.k8s.io/v1 or v1beta1 AdmissionReview");
        }
        JsonNode request = body.path("request");
        String uid = request.path("uid").asText("");
        if (!request.isObject() || uid.isEmpty()) {
            throw new InvalidInputException("the AdmissionReview has no request.uid");
        }
        ObjectNode response = JSON.objectNode().put("uid", uid);
        ObjectNode review = JSON.objectNode().put("apiVersion", apiVersion).put("kind", "AdmissionReview");
        review.set("response", response);
        return new AdmissionEnvelope(request, review, response);
    }

    public JsonNode request() {
        return request;
    }

    /** {@code request.resource} is {@code group/resource} ({@code ""} for the core group) and {@code request.subResource} is {@code sub}. */
    public boolean isFor(String group, String resource, String subResource) {
        JsonNode r = request.path("resource");
        return r.path("group").asText("").equals(group) && r.path("resource").asText("").equals(resource)
                && request.path("subResource").asText("").equals(subResource);
    }

    public String operation() {
        return request.path("operation").asText("");
    }

    public ObjectNode allow() {
        response.put("allowed", true);
        return review;
    }

    /** Allowed, with the API server's warnings (shown by kubectl; admission.k8s.io/v1 only, ignored by v1beta1 callers). */
    public ObjectNode allow(List<String> warnings) {
        if (!warnings.isEmpty()) {
            warnings.forEach(response.putArray("warnings")::add);
        }
        return allow();
    }

    public ObjectNode allowPatched(JsonNode jsonPatch) {
        response.put("patchType", "JSONPatch");
        response.put("patch", Base64.getEncoder().encodeToString(jsonPatch.toString().getBytes(StandardCharsets.UTF_8)));
        return allow();
    }

    public ObjectNode refuse(int code, String message) {
        response.put("allowed", false);
        response.putObject("status").put("code", code).put("message", message);
        return review;
    }
}
