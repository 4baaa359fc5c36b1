package io.colocation.broker.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The validating webhook of profiles: what it refuses, with which code and words, and what it only warns about. */
class ProfileReviewsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final PodMutation.Cluster CLUSTER = new PodMutation.Cluster() {
        @Override
        public List<ColocationProfile> profiles() {
            return List.of();
        }

        @Override
        public Optional<Map<String, String>> namespaceLabels(String namespace) {
            return Optional.empty();
        }

        @Override
        public Optional<PodMutation.PriorityClassInfo> priorityClass(String name) {
            return name.equals("koord-batch") ? Optional.of(new PodMutation.PriorityClassInfo(5000, null)) : Optional.empty();
        }
    };

    private static JsonNode response(String op, String spec) throws Exception {
        ObjectNode review = (ObjectNode) JSON.readTree("""
                {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                 "request": {"uid": "u-2", "operation": "%s", "name": "p",
                             "resource": {"group": "config.koordinator.sh", "version": "v1alpha1", "resource": "clustercolocationprofiles"},
                             "object": {"apiVersion": "config.koordinator.sh/v1alpha1", "kind": "ClusterColocationProfile",
                                        "metadata": {"name": "p"}, "spec": %s}}}""".formatted(op, spec));
        return ProfileReviews.answer(review, CLUSTER).review().get("response");
    }

    @Test
    void aProfileThePodWebhookCouldNotUseIsRefusedWithEveryProblemNamed() throws Exception {
        JsonNode r = response("CREATE", "{\"probability\": \"50\", \"selector\": {\"matchExpressions\": [{\"key\": \"app\", \"operator\": \"in\","
                + " \"values\": [\"web\"]}]}, \"labelSuffixes\": {\"app\": \"-x-\"}}");
        assertFalse(r.get("allowed").asBoolean());
        assertEquals(422, r.get("status").get("code").asInt());
        String message = r.get("status").get("message").asText();
        for (String field : List.of("spec.probability", "spec.selector", "spec.labelSuffixes.app")) {
            assertTrue(message.contains(field), message);
        }
    }

    @Test
    void aFieldOfTheWrongTypeIsRefusedNamed() throws Exception {
        JsonNode r = response("UPDATE", "{\"labels\": {\"a\": 3}}");
        assertFalse(r.get("allowed").asBoolean());
        assertTrue(r.get("status").get("message").asText().contains("spec.labels.a: must be a string"), r.toString());
    }

    @Test
    void aMissingPriorityClassIsAWarning() throws Exception {
        JsonNode r = response("CREATE", "{\"priorityClassName\": \"koord-bacth\", \"qosClass\": \"BE\"}");
        assertTrue(r.get("allowed").asBoolean());
        assertTrue(r.get("warnings").get(0).asText().contains("PriorityClass koord-bacth does not exist"), r.toString());
        JsonNode ok = response("CREATE", "{\"priorityClassName\": \"koord-batch\", \"probability\": \"50%\"}");
        assertTrue(ok.get("allowed").asBoolean());
        assertFalse(ok.has("warnings"), ok.toString());
    }
}
