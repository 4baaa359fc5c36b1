package io.colocation.broker.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.review.AdmissionEnvelope;
import java.util.ArrayList;
import java.util.List;

/**
 * The validating webhook of ClusterColocationProfiles ({@code /validate-profile}): a create or update of a profile the
 * pod webhook could not use ({@link ProfileValidation}: a selector that does not compile, a probability that is not 0
 * to 100 percent, keys and suffixes that are not label syntax, a patch that does not apply) is refused with every
 * problem named, so {@code kubectl apply} says what to fix instead of the profile reaching pods. A PriorityClass that
 * does not exist yet is a warning: profiles and classes are often applied together, in any order, and a pod the
 * profile matches meanwhile is refused with Koordinator's words.
 */
public final class ProfileReviews {
    private ProfileReviews() {
    }

    /** The decision and a line for the log. */
    public record Answer(ObjectNode review, String profile, String decision, String message) {
    }

    /** @throws InvalidInputException when the body is no AdmissionReview with a request and a uid (answered HTTP 400) */
    public static Answer answer(JsonNode review, PodMutation.Cluster cluster) throws InvalidInputException {
        AdmissionEnvelope envelope = AdmissionEnvelope.open(review);
        JsonNode object = envelope.request().path("object");
        String name = object.path("metadata").path("name").asText(envelope.request().path("name").asText(""));
        String op = envelope.operation();
        if (!envelope.isFor("config.koordinator.sh", "clustercolocationprofiles", "") || !op.equals("CREATE") && !op.equals("UPDATE")) {
            return new Answer(envelope.allow(), name, "not a profile write", "");
        }
        ColocationProfile profile;
        try {
            profile = ColocationProfile.read(object, ColocationProfile.KIND + "/" + name);
        } catch (InvalidInputException e) {
            return new Answer(envelope.refuse(422, e.getMessage()), name, "refused", e.getMessage());
        }
        List<String> problems = ProfileValidation.problems(profile);
        if (!problems.isEmpty()) {
            String message = ColocationProfile.KIND + " " + name + " is refused: " + String.join("; ", problems);
            return new Answer(envelope.refuse(422, message), name, "refused", message);
        }
        List<String> warnings = new ArrayList<>();
        if (profile.priorityClassName() != null && !profile.priorityClassName().isEmpty()
                && cluster.priorityClass(profile.priorityClassName()).isEmpty()) {
            warnings.add("spec.priorityClassName: PriorityClass " + profile.priorityClassName() + " does not exist: pods this profile"
                    + " matches are refused until it does");
        }
        return new Answer(envelope.allow(warnings), name, "allowed", String.join("; ", warnings));
    }
}
