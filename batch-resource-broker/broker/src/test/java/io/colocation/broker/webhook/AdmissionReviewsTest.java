package io.colocation.broker.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The AdmissionReview around the mutation: what is answered, with which status, and that the patch makes the mutated pod. */
class AdmissionReviewsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Koordinator's website example profile, and a cluster holding it and koord-batch (5000). */
    private static PodMutation.Cluster cluster(String priorityClassName) throws Exception {
        ColocationProfile profile = ColocationProfile.read(JSON.readTree("""
                {"apiVersion": "config.koordinator.sh/v1alpha1", "kind": "ClusterColocationProfile",
                 "metadata": {"name": "colocation-profile-example"},
                 "spec": {"namespaceSelector": {"matchLabels": {"koordinator.sh/enable-colocation": "true"}},
                          "selector": {"matchLabels": {"koordinator.sh/enable-colocation": "true"}},
                          "qosClass": "BE", "priorityClassName": "%s", "koordinatorPriority": 1000,
                          "schedulerName": "koord-scheduler"}}""".formatted(priorityClassName)), "profile");
        return new PodMutation.Cluster() {
            @Override
            public List<ColocationProfile> profiles() {
                return List.of(profile);
            }

            @Override
            public Optional<Map<String, String>> namespaceLabels(String namespace) {
                return Optional.of(Map.of("koordinator.sh/enable-colocation", "true"));
            }

            @Override
            public Optional<PodMutation.PriorityClassInfo> priorityClass(String name) {
                return name.equals("koord-batch") ? Optional.of(new PodMutation.PriorityClassInfo(5000, "PreemptLowerPriority"))
                        : Optional.empty();
            }
        };
    }

    private static ObjectNode review(String apiVersion, String operation, String resource, String subResource, String podJson)
            throws Exception {
        ObjectNode review = (ObjectNode) JSON.readTree("""
                {"apiVersion": "%s", "kind": "AdmissionReview",
                 "request": {"uid": "705ab4f5-6393-11e8-b7cc-42010a800002", "kind": {"group": "", "version": "v1", "kind": "Pod"},
                             "resource": {"group": "", "version": "v1", "resource": "%s"}, "subResource": "%s",
                             "namespace": "spark", "operation": "%s"}}""".formatted(apiVersion, resource, subResource, operation));
        ((ObjectNode) review.get("request")).set("object", JSON.readTree(podJson));
        return review;
    }

    private static final String POD = """
            {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": "executor-1", "labels": {"koordinator.sh/enable-colocation": "true"}},
             "spec": {"containers": [{"name": "main", "image": "spark:3.5",
                                      "resources": {"requests": {"cpu": "1", "memory": "3456Mi"},
                                                    "limits": {"cpu": "1", "memory": "3456Mi"}}}]}}""";

    @Test
    void aPodCreateIsAnsweredWithTheJsonPatchThatMakesTheMutatedPod() throws Exception {
        for (String version : List.of("admission.k8s.io/v1", "admission.k8s.io/v1beta1")) {
            ObjectNode review = review(version, "CREATE", "pods", "", POD);
            AdmissionReviews.Answer a = AdmissionReviews.answer(review, cluster("koord-batch"), PodMutation.Gates.DEFAULTS, () -> 0);
            JsonNode response = a.review().get("response");
            assertEquals(version, a.review().get("apiVersion").asText());
            assertEquals("705ab4f5-6393-11e8-b7cc-42010a800002", response.get("uid").asText());
            assertTrue(response.get("allowed").asBoolean());
            assertEquals("JSONPatch", response.get("patchType").asText());
            assertEquals("mutated", a.decision());
            assertEquals("spark/executor-1", a.pod());

            JsonNode patch = JSON.readTree(Base64.getDecoder().decode(response.get("patch").asText()));
            patch.forEach(op -> assertTrue(List.of("add", "remove", "replace").contains(op.get("op").asText()), op.toString()));
            JsonNode patched = JsonPatch.apply(patch, review.get("request").get("object"));
            ObjectNode expected = PodMutation.mutate((ObjectNode) JSON.readTree(POD), "spark", cluster("koord-batch"),
                    PodMutation.Gates.DEFAULTS, () -> 0).pod();
            assertEquals(expected, patched);
            // The namespace of the request was used for matching, and is not written into the pod (Koordinator removes it).
            assertFalse(patched.get("metadata").has("namespace"));
            assertEquals("BE", patched.at("/metadata/labels/koordinator.sh~1qosClass").asText());
            assertEquals(5000, patched.at("/spec/priority").asInt());
            assertEquals("koord-scheduler", patched.at("/spec/schedulerName").asText());
            assertEquals("1k", patched.at("/spec/containers/0/resources/requests/kubernetes.io~1batch-cpu").asText());
            assertEquals("3456Mi", patched.at("/spec/containers/0/resources/limits/kubernetes.io~1batch-memory").asText());
            assertTrue(patched.at("/spec/containers/0/resources/requests/cpu").isMissingNode());
        }
    }

    @Test
    void onlyPodCreatesAreMutatedEverythingElseIsAllowedUnchanged() throws Exception {
        String[][] cases = {{"UPDATE", "pods", ""}, {"CREATE", "pods", "binding"}, {"CREATE", "pods", "eviction"},
            {"CREATE", "configmaps", ""}, {"DELETE", "pods", ""}};
        for (String[] c : cases) {
            AdmissionReviews.Answer a = AdmissionReviews.answer(review("admission.k8s.io/v1", c[0], c[1], c[2], POD),
                    cluster("koord-batch"), PodMutation.Gates.DEFAULTS, () -> 0);
            JsonNode response = a.review().get("response");
            assertTrue(response.get("allowed").asBoolean(), String.join(" ", c));
            assertFalse(response.has("patch"), String.join(" ", c));
            assertEquals("not a pod create", a.decision());
        }
    }

    @Test
    void aPodNoProfileChangesIsAllowedWithoutAPatch() throws Exception {
        String plain = POD.replace("\"koordinator.sh/enable-colocation\": \"true\"", "\"app\": \"web\"");
        AdmissionReviews.Answer a = AdmissionReviews.answer(review("admission.k8s.io/v1", "CREATE", "pods", "", plain),
                cluster("koord-batch"), PodMutation.Gates.DEFAULTS, () -> 0);
        assertTrue(a.review().get("response").get("allowed").asBoolean());
        assertFalse(a.review().get("response").has("patch"));
        assertEquals("unchanged", a.decision());
    }

    @Test
    void koordinatorsRefusalsAre500WithItsTextAndAnUndecodablePodIs400() throws Exception {
        AdmissionReviews.Answer denied = AdmissionReviews.answer(review("admission.k8s.io/v1", "CREATE", "pods", "", POD),
                cluster("koord-missing"), PodMutation.Gates.DEFAULTS, () -> 0);
        JsonNode response = denied.review().get("response");
        assertFalse(response.get("allowed").asBoolean());
        assertEquals(500, response.at("/status/code").asInt());
        assertEquals("PriorityClass.scheduling.k8s.io \"koord-missing\" not found", response.at("/status/message").asText());
        assertEquals("denied", denied.decision());

        AdmissionReviews.Answer bad = AdmissionReviews.answer(review("admission.k8s.io/v1", "CREATE", "pods", "",
                "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"spec\": {\"containers\": {\"name\": \"x\"}}}"),
                cluster("koord-batch"), PodMutation.Gates.DEFAULTS, () -> 0);
        assertFalse(bad.review().at("/response/allowed").asBoolean());
        assertEquals(400, bad.review().at("/response/status/code").asInt());
        assertTrue(bad.message().startsWith("request.object"), bad.message());
    }

    @Test
    void aBodyThatIsNoAdmissionReviewIsBadInput() throws Exception {
        for (String body : List.of("{}", "{\"apiVersion\": \"v1\", \"kind\": \"Pod\"}",
                "{\"apiVersion\": \"admission.k8s.io/v1\", \"kind\": \"AdmissionReview\"}",
                "{\"apiVersion\": \"admission.k8s.io/v1\", \"kind\": \"AdmissionReview\", \"request\": {\"operation\": \"CREATE\"}}")) {
            assertThrows(InvalidInputException.class, () -> AdmissionReviews.answer(JSON.readTree(body), cluster("koord-batch"),
                    PodMutation.Gates.DEFAULTS, () -> 0), body);
        }
    }

    /** A pod asking 10^16 cores (overflowing milli-cores) is refused with the field named; no error page, no trace. */
    @Test
    void anAbsurdQuantityIsRefusedNamingItsField() throws Exception {
        AdmissionReviews.Answer a = AdmissionReviews.answer(review("admission.k8s.io/v1", "CREATE", "pods", "",
                POD.replace("\"cpu\": \"1\", \"memory\": \"3456Mi\"},\n", "\"cpu\": \"10000000000000000\", \"memory\": \"3456Mi\"},\n")),
                cluster("koord-batch"), PodMutation.Gates.DEFAULTS, () -> 0);
        JsonNode response = a.review().get("response");
        assertFalse(response.get("allowed").asBoolean());
        String message = response.at("/status/message").asText();
        assertTrue(message.startsWith("spec.containers[0].resources.requests.cpu: 10000000000000000 cores do not fit"), message);
        assertFalse(message.contains("Exception"), message);
    }

    /** Past 1,000 containers a pod is refused at once, saying why: the webhook's work is bounded per request. */
    @Test
    void aPodOfMoreContainersThanTheCapIsRefusedSayingWhy() throws Exception {
        ObjectNode pod = (ObjectNode) JSON.readTree(POD);
        com.fasterxml.jackson.databind.node.ArrayNode containers = (com.fasterxml.jackson.databind.node.ArrayNode) pod.at("/spec/containers");
        for (int i = 0; i < PodMutation.MAX_CONTAINERS; i++) {
            containers.add(((ObjectNode) containers.get(0).deepCopy()).put("name", "c" + i));
        }
        AdmissionReviews.Answer a = AdmissionReviews.answer(review("admission.k8s.io/v1", "CREATE", "pods", "", pod.toString()),
                cluster("koord-batch"), PodMutation.Gates.DEFAULTS, () -> 0);
        assertFalse(a.review().at("/response/allowed").asBoolean());
        assertEquals(400, a.review().at("/response/status/code").asInt(), "the pod is the problem: nothing for a client to retry");
        assertEquals("the pod has 1001 containers (init, regular and ephemeral); the colocation webhook admits pods of at most 1000",
                a.review().at("/response/status/message").asText());
        containers.remove(0);
        AdmissionReviews.Answer atCap = AdmissionReviews.answer(review("admission.k8s.io/v1", "CREATE", "pods", "", pod.toString()),
                cluster("koord-batch"), PodMutation.Gates.DEFAULTS, () -> 0);
        assertEquals("mutated", atCap.decision());
    }
}
