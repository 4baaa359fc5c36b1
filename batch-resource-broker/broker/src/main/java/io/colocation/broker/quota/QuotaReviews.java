package io.colocation.broker.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.review.AdmissionEnvelope;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * The validating webhook of ElasticQuotas ({@code /validate-elasticquota}): a create, update or delete that would break
 * the quota tree ({@link QuotaValidation}) is refused with every problem named, so {@code kubectl apply} says what to
 * fix instead of the scheduler leaving the quota out of its tree. A shared weight of zeros is allowed with a warning
 * (Koordinator then shares by max).
 */
public final class QuotaReviews {
    private QuotaReviews() {
    }

    /** What a review reads of the cluster now. */
    public interface Cluster {
        /** Every ElasticQuota stored now; one that does not read is left out. */
        List<ElasticQuotaSpec> quotas() throws InvalidInputException;

        /** Whether any pod belongs to the quota (its name label, or its namespace when the quota is named like it). */
        boolean usedByPods(ElasticQuotaSpec quota) throws InvalidInputException;
    }

    /** The decision and a line for the log. */
    public record Answer(ObjectNode review, String quota, String decision, String message) {
    }

    /** @throws InvalidInputException when the body is no AdmissionReview with a request and a uid (answered HTTP 400) */
    public static Answer answer(JsonNode review, Cluster cluster) throws InvalidInputException {
        AdmissionEnvelope envelope = AdmissionEnvelope.open(review);
        String op = envelope.operation();
        JsonNode object = envelope.request().path(op.equals("DELETE") ? "oldObject" : "object");
        String ns = object.path("metadata").path("namespace").asText(envelope.request().path("namespace").asText(""));
        String name = ns + "/" + object.path("metadata").path("name").asText(envelope.request().path("name").asText(""));
        if (!envelope.isFor("scheduling.sigs.k8s.io", "elasticquotas", "") || !List.of("CREATE", "UPDATE", "DELETE").contains(op)) {
            return new Answer(envelope.allow(), name, "not a quota write", "");
        }
        List<String> problems;
        List<String> warnings = new ArrayList<>();
        try {
            List<ElasticQuotaSpec> existing = cluster.quotas();
            if (op.equals("DELETE")) {
                problems = QuotaValidation.deleteProblems(ElasticQuotaSpec.read(object), existing);
            } else {
                ElasticQuotaSpec next = ElasticQuotaSpec.read(object);
                JsonNode oldObject = envelope.request().path("oldObject");
                ElasticQuotaSpec old = op.equals("UPDATE") && oldObject.isObject() ? ElasticQuotaSpec.read(oldObject) : null;
                // Asked of the API server only when is-parent turns on, the one rule that needs it.
                boolean used = old != null && !old.isParent() && next.isParent() && cluster.usedByPods(next);
                problems = QuotaValidation.problems(next, old, object, existing, () -> used);
                if (problems.isEmpty() && next.sharedWeightNote() != null) {
                    warnings.add(next.sharedWeightNote());
                }
            }
        } catch (InvalidInputException e) {
            return new Answer(envelope.refuse(422, e.getMessage()), name, "refused", e.getMessage());
        }
        if (!problems.isEmpty()) {
            String message = "ElasticQuota " + name + " is refused: " + String.join("; ", problems);
            return new Answer(envelope.refuse(422, message), name, "refused", message);
        }
        return new Answer(envelope.allow(warnings), name, "allowed", String.join("; ", warnings));
    }
}
