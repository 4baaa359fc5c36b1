package io.colocation.broker.nodeagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.node.YarnReleaseResource;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The node agent on its own node: each request of the koordlet's identity judged against the node its pod is bound to. */
class NodeAgentReviewsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String AGENT = "system:serviceaccount:koordinator-system:koordlet";
    private static final ReleaseProof PROOF = new ReleaseProof(new byte[32]);
    private static final Map<String, NodeAgentReviews.BoundPod> PODS = Map.of(
            "koordinator-system/koordlet-a", new NodeAgentReviews.BoundPod("uid-a", "node-a"),
            "koordinator-system/koordlet-pending", new NodeAgentReviews.BoundPod("uid-p", ""),
            "batch/be-a", new NodeAgentReviews.BoundPod("uid-1", "node-a"),
            "kube-system/dns-b", new NodeAgentReviews.BoundPod("uid-2", "node-b"));
    private static final NodeAgentReviews.Pods LOOKUP = (ns, name) -> Optional.ofNullable(PODS.get(ns + "/" + name));
    private static final String SPEC = "{\"limit\": {\"cpu\": \"1\", \"memory\": \"1Gi\"}, \"expires\": \"2026-11-23T10:00:40Z\"}";

    /** A YarnRelease object named {@code name} with {@code spec} and the annotations {@code annotations} (JSON members). */
    private static String release(String name, String spec, String annotations) {
        return "{\"apiVersion\": \"colocation.io/v1alpha1\", \"kind\": \"YarnRelease\", \"metadata\": {\"name\": \"" + name + "\""
                + (annotations == null ? "" : ", \"annotations\": {" + annotations + "}") + "}, \"spec\": " + spec + "}";
    }

    private static ObjectNode releaseWrite(String user, String op, String name, String object) throws Exception {
        return review(user, "koordlet-a", "uid-a", "colocation.io", "yarnreleases", "", op, "", name, object, null);
    }

    private static ObjectNode review(String user, String pod, String uid, String group, String resource, String sub, String op,
            String namespace, String name, String object, String old) throws Exception {
        ObjectNode request = JSON.createObjectNode().put("uid", "u-1").put("operation", op).put("name", name).put("namespace", namespace)
                .put("subResource", sub);
        request.putObject("resource").put("group", group).put("version", "v1").put("resource", resource);
        ObjectNode info = request.putObject("userInfo").put("username", user);
        if (pod != null) {
            info.putObject("extra").set(NodeAgentReviews.EXTRA_POD_NAME, JSON.createArrayNode().add(pod));
            ((ObjectNode) info.get("extra")).set(NodeAgentReviews.EXTRA_POD_UID, JSON.createArrayNode().add(uid));
        }
        if (object != null) {
            request.set("object", JSON.readTree(object));
        }
        if (old != null) {
            request.set("oldObject", JSON.readTree(old));
        }
        ObjectNode review = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        review.set("request", request);
        return review;
    }

    static Stream<Arguments> requests() throws Exception {
        return Stream.of(
                // name, review, allowed, fragment of the refusal
                Arguments.of("another user writes any release", releaseWrite("admin", "UPDATE", "node-b", release("node-b", SPEC, null)),
                        true, ""),
                Arguments.of("its own node's release", releaseWrite(AGENT, "CREATE", "node-a", release("node-a", SPEC, null)), true, ""),
                Arguments.of("its own node's release replaced", releaseWrite(AGENT, "UPDATE", "node-a", release("node-a", SPEC, null)), true,
                        ""),
                Arguments.of("another node's release", releaseWrite(AGENT, "CREATE", "node-b", release("node-b", SPEC, null)), false,
                        "may write YarnRelease node-a only, not node-b"),
                Arguments.of("a release the broker cannot read", releaseWrite(AGENT, "CREATE", "node-a", release("node-a",
                        "{\"limit\": {\"cpu\": \"1\"}, \"expires\": \"2026-11-23T10:00:40Z\"}", null)), false,
                        "YarnRelease node-a: spec: limit must give cpu and memory"),
                Arguments.of("a stamp of its own", releaseWrite(AGENT, "CREATE", "node-a", release("node-a", SPEC,
                        "\"colocation.io/yarn-release-proof\": \"forged\"")), true, ""),
                Arguments.of("a legacy token, no pod named", review(AGENT, null, null, "colocation.io", "yarnreleases", "", "CREATE", "",
                        "node-a", release("node-a", SPEC, null), null), false, "a token that names no pod"),
                Arguments.of("a token of a pod that is gone", review(AGENT, "koordlet-x", "uid-x", "colocation.io", "yarnreleases", "", "CREATE",
                        "", "node-a", release("node-a", SPEC, null), null), false, "is not a pod bound to a node"),
                Arguments.of("a token of a pod not yet bound", review(AGENT, "koordlet-pending", "uid-p", "colocation.io", "yarnreleases", "",
                        "CREATE", "", "node-a", release("node-a", SPEC, null), null), false, "is not a pod bound to a node"),
                Arguments.of("a token whose uid is not the pod's", review(AGENT, "koordlet-a", "uid-old", "colocation.io", "yarnreleases", "",
                        "CREATE", "", "node-a", release("node-a", SPEC, null), null), false, "is not a pod bound to a node"),
                Arguments.of("its own Node, were the webhook asked for Nodes", review(AGENT, "koordlet-a", "uid-a", "", "nodes", "", "UPDATE",
                        "", "node-a", "{}", "{}"), false, "does not write Nodes"),
                Arguments.of("its own NodeMetric's status", review(AGENT, "koordlet-a", "uid-a", "slo.koordinator.sh", "nodemetrics", "status",
                        "UPDATE", "", "node-a", "{}", "{}"), true, ""),
                Arguments.of("another NodeMetric's status", review(AGENT, "koordlet-a", "uid-a", "slo.koordinator.sh", "nodemetrics", "status",
                        "UPDATE", "", "node-b", "{}", "{}"), false, "NodeMetric node-a only, not node-b"),
                Arguments.of("evicting a pod of its node", review(AGENT, "koordlet-a", "uid-a", "", "pods", "eviction", "CREATE", "batch",
                        "be-a", "{}", null), true, ""),
                Arguments.of("evicting a pod of another node", review(AGENT, "koordlet-a", "uid-a", "", "pods", "eviction", "CREATE",
                        "kube-system", "dns-b", "{}", null), false, "pod kube-system/dns-b is on node-b"),
                Arguments.of("evicting a pod that does not exist", review(AGENT, "koordlet-a", "uid-a", "", "pods", "eviction", "CREATE",
                        "batch", "none", "{}", null), false, "is not found"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void judged(String name, ObjectNode review, boolean allowed, String fragment) throws Exception {
        NodeAgentReviews.Answer a = NodeAgentReviews.answer(review, Set.of("koordinator-system:koordlet"), LOOKUP, PROOF);
        JsonNode response = a.review().get("response");
        assertEquals("u-1", response.get("uid").asText());
        assertEquals(allowed, response.get("allowed").asBoolean(), response.toString());
        if (!allowed) {
            assertEquals(403, response.get("status").get("code").asInt());
            assertTrue(response.get("status").get("message").asText().contains(fragment), response.toString());
        }
    }

    /** A release the node's own agent writes is stamped for that node; a stamp it brought itself is replaced. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("stamps")
    void itsOwnReleaseIsStamped(String name, String annotations) throws Exception {
        ObjectNode review = releaseWrite(AGENT, "CREATE", "node-a", release("node-a", SPEC, annotations));
        JsonNode response = NodeAgentReviews.answer(review, Set.of("koordinator-system:koordlet"), LOOKUP, PROOF).review().get("response");
        assertEquals("JSONPatch", response.get("patchType").asText());
        JsonNode patch = JSON.readTree(Base64.getDecoder().decode(response.get("patch").asText()));
        JsonNode stored = JsonPatch.apply(patch, review.get("request").get("object"));
        YarnRelease written = YarnRelease.parse(stored.get("spec"), "test");
        String stamp = stored.get("metadata").get("annotations").get(YarnReleaseResource.PROOF_ANNOTATION).asText();
        assertTrue(PROOF.verifies("node-a", written, stamp));
        assertFalse(PROOF.verifies("node-b", written, stamp), "a stamp is for one node");
    }

    static Stream<Arguments> stamps() {
        return Stream.of(Arguments.of("a new release", null), Arguments.of("with other annotations", "\"note\": \"x\""),
                Arguments.of("a release with a forged stamp", "\"colocation.io/yarn-release-proof\": \"forged\""));
    }
}
