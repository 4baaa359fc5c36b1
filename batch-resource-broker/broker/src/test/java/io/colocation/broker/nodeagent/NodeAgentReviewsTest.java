package io.colocation.broker.nodeagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
    private static final String NODE = "{\"metadata\": {\"name\": \"%s\", \"resourceVersion\": \"%s\", \"labels\": {\"zone\": \"a\"%s},"
            + " \"annotations\": {\"node.koordinator.sh/raw-allocatable\": \"{}\"%s}}, \"spec\": {%s}}";

    private static String node(String name, String version, String label, String annotation, String spec) {
        return NODE.formatted(name, version, label, annotation, spec);
    }

    private static final String BEFORE_A = node("node-a", "1", "", "", "");
    private static final String RELEASE = ", \"colocation.io/yarn-release\": \"{\\\"limit\\\": {}}\"";

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

    private static ObjectNode nodeUpdate(String user, String name, String object, String old) throws Exception {
        return review(user, "koordlet-a", "uid-a", "", "nodes", "", "UPDATE", "", name, object, old);
    }

    static Stream<Arguments> requests() throws Exception {
        return Stream.of(
                // name, review, allowed, fragment of the refusal
                Arguments.of("another user changes any node", nodeUpdate("admin", "node-b", node("node-b", "2", ", \"x\": \"y\"", "", ""),
                        node("node-b", "1", "", "", "")), true, ""),
                Arguments.of("its own node's release", nodeUpdate(AGENT, "node-a", node("node-a", "2", "", RELEASE, ""), BEFORE_A), true, ""),
                Arguments.of("another node's release", nodeUpdate(AGENT, "node-b", node("node-b", "2", "", RELEASE, ""),
                        node("node-b", "1", "", "", "")), false, "may change Node node-a only, not node-b"),
                Arguments.of("a label on its own node", nodeUpdate(AGENT, "node-a", node("node-a", "2", ", \"evil\": \"1\"", "", ""), BEFORE_A),
                        false, "metadata.labels"),
                Arguments.of("a taint on its own node", nodeUpdate(AGENT, "node-a", node("node-a", "2", "", "",
                        "\"taints\": [{\"key\": \"k\", \"effect\": \"NoSchedule\"}]"), BEFORE_A), false, "changes spec"),
                Arguments.of("cordoning its own node", nodeUpdate(AGENT, "node-a", node("node-a", "2", "", "", "\"unschedulable\": true"),
                        BEFORE_A), false, "changes spec"),
                Arguments.of("draining its own node's Batch", nodeUpdate(AGENT, "node-a", node("node-a", "2", "",
                        ", \"colocation.io/drain-batch\": \"true\"", ""), BEFORE_A), false, "the annotation colocation.io/drain-batch"),
                Arguments.of("a stamp of its own", nodeUpdate(AGENT, "node-a", node("node-a", "2", "",
                        RELEASE + ", \"colocation.io/yarn-release-proof\": \"forged\"", ""), BEFORE_A), true, ""),
                Arguments.of("a legacy token, no pod named", review(AGENT, null, null, "", "nodes", "", "UPDATE", "", "node-a",
                        node("node-a", "2", "", RELEASE, ""), BEFORE_A), false, "a token that names no pod"),
                Arguments.of("a token of a pod that is gone", review(AGENT, "koordlet-x", "uid-x", "", "nodes", "", "UPDATE", "", "node-a",
                        node("node-a", "2", "", RELEASE, ""), BEFORE_A), false, "is not a pod bound to a node"),
                Arguments.of("a token of a pod not yet bound", review(AGENT, "koordlet-pending", "uid-p", "", "nodes", "", "UPDATE", "",
                        "node-a", node("node-a", "2", "", RELEASE, ""), BEFORE_A), false, "is not a pod bound to a node"),
                Arguments.of("a token whose uid is not the pod's", review(AGENT, "koordlet-a", "uid-old", "", "nodes", "", "UPDATE", "",
                        "node-a", node("node-a", "2", "", RELEASE, ""), BEFORE_A), false, "is not a pod bound to a node"),
                Arguments.of("Node status", review(AGENT, "koordlet-a", "uid-a", "", "nodes", "status", "UPDATE", "", "node-a",
                        BEFORE_A, BEFORE_A), false, "does not write Node status"),
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

    /** A release the node's own agent writes is stamped for that node; the stamp it brought itself is replaced. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("stamps")
    void itsOwnReleaseIsStamped(String name, String annotations) throws Exception {
        ObjectNode review = nodeUpdate(AGENT, "node-a", node("node-a", "2", "", annotations, ""), BEFORE_A);
        JsonNode response = NodeAgentReviews.answer(review, Set.of("koordinator-system:koordlet"), LOOKUP, PROOF).review().get("response");
        assertEquals("JSONPatch", response.get("patchType").asText());
        JsonNode patch = JSON.readTree(Base64.getDecoder().decode(response.get("patch").asText()));
        JsonNode stored = JsonPatch.apply(patch, review.get("request").get("object"));
        JsonNode annotationsAfter = stored.get("metadata").get("annotations");
        assertTrue(PROOF.verifies("node-a", annotationsAfter.get("colocation.io/yarn-release").asText(),
                annotationsAfter.get(ReleaseProof.ANNOTATION).asText()));
        assertFalse(PROOF.verifies("node-b", annotationsAfter.get("colocation.io/yarn-release").asText(),
                annotationsAfter.get(ReleaseProof.ANNOTATION).asText()), "a stamp is for one node");
    }

    static Stream<Arguments> stamps() {
        return Stream.of(Arguments.of("a new release", RELEASE),
                Arguments.of("a release with a forged stamp", RELEASE + ", \"colocation.io/yarn-release-proof\": \"forged\""));
    }
}
