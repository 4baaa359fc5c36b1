package io.colocation.broker.nodeagent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.review.AdmissionEnvelope;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.node.YarnReleaseResource;
import java.util.Optional;
import java.util.Set;

/**
 * The node restriction of the node agent ({@code /node-agent}), what Kubernetes' NodeRestriction admission plugin does
 * for kubelets: a request of the koordlet's service account may act on its own node only. Its node is the one its pod
 * is bound to, and its pod is named by its bound service-account token (the API server puts the pod's name and uid in
 * the request's {@code userInfo.extra}); a token without them (a legacy Secret token) is refused, since it says
 * nothing of a node. Then:
 * <ul>
 * <li>its node's {@code YarnRelease} only, with a spec the broker can read; the release is stamped with a
 * {@link ReleaseProof} (replacing any stamp the agent wrote), which the broker requires;</li>
 * <li>NodeMetric status: only its own node's; a NodeMetric's spec never (the broker's);</li>
 * <li>an eviction: only of a pod bound to its node;</li>
 * <li>a Node: never (its RBAC has no right to, and the webhook is not asked for Nodes as shipped).</li>
 * </ul>
 * Every other requester is allowed unchanged: their rights are RBAC's. A pure function of the review and the pods it
 * looks up.
 */
public final class NodeAgentReviews {
    static final String EXTRA_POD_NAME = "authentication.kubernetes.io/pod-name";
    static final String EXTRA_POD_UID = "authentication.kubernetes.io/pod-uid";
    private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    /** A pod as the restriction needs it: its uid and the node it is bound to (empty when not bound). */
    public record BoundPod(String uid, String nodeName) {
    }

    /** The pods the restriction looks up. */
    @FunctionalInterface
    public interface Pods {
        Optional<BoundPod> get(String namespace, String name);
    }

    /** The decision and a line for the log; {@code agent} is {@code namespace/pod} of the requester, empty when not the agent. */
    public record Answer(ObjectNode review, String agent, String decision, String message) {
    }

    private NodeAgentReviews() {
    }

    /**
     * @param serviceAccounts the node agent's service accounts, {@code namespace:name}
     * @throws InvalidInputException when the body is no AdmissionReview with a request and a uid (answered HTTP 400)
     */
    public static Answer answer(JsonNode review, Set<String> serviceAccounts, Pods pods, ReleaseProof proof) throws InvalidInputException {
        AdmissionEnvelope envelope = AdmissionEnvelope.open(review);
        JsonNode request = envelope.request();
        String user = request.path("userInfo").path("username").asText("");
        if (!user.startsWith(SERVICE_ACCOUNT_PREFIX) || !serviceAccounts.contains(user.substring(SERVICE_ACCOUNT_PREFIX.length()))) {
            return new Answer(envelope.allow(), "", "not the node agent", "");
        }
        String agentNamespace = user.substring(SERVICE_ACCOUNT_PREFIX.length(), user.lastIndexOf(':'));
        String podName = first(request.path("userInfo").path("extra").path(EXTRA_POD_NAME));
        String podUid = first(request.path("userInfo").path("extra").path(EXTRA_POD_UID));
        String agent = agentNamespace + "/" + (podName == null ? "?" : podName);
        if (podName == null || podUid == null) {
            return refuse(envelope, agent, user + " acts with a token that names no pod: the node agent must use a bound service-account"
                    + " token (a projected serviceAccountToken volume), which names its pod and so its node");
        }
        Optional<BoundPod> own = pods.get(agentNamespace, podName);
        if (own.isEmpty() || !own.get().uid().equals(podUid) || own.get().nodeName().isEmpty()) {
            return refuse(envelope, agent, "the node agent's pod " + agent + " (uid " + podUid + ") is not a pod bound to a node");
        }
        String node = own.get().nodeName();
        String name = request.path("name").asText("");
        if (envelope.isFor(YarnReleaseResource.GROUP, YarnReleaseResource.PLURAL, "")) {
            return release(envelope, agent, node, name, request.path("object"), proof);
        }
        if (envelope.isFor("", "nodes", "") || envelope.isFor("", "nodes", "status")) {
            return refuse(envelope, agent, "the node agent does not write Nodes (its releases are YarnRelease objects, its reports"
                    + " NodeMetric status)");
        }
        if (envelope.isFor("slo.koordinator.sh", "nodemetrics", "status")) {
            return name.equals(node) ? new Answer(envelope.allow(), agent, "allowed", "")
                    : refuse(envelope, agent, "the node agent on " + node + " may write the status of NodeMetric " + node + " only, not "
                            + name);
        }
        if (envelope.isFor("slo.koordinator.sh", "nodemetrics", "")) {
            return refuse(envelope, agent, "a NodeMetric's spec is the broker's");
        }
        if (envelope.isFor("", "pods", "eviction")) {
            String namespace = request.path("namespace").asText("");
            Optional<BoundPod> victim = pods.get(namespace, name);
            return victim.isPresent() && victim.get().nodeName().equals(node) ? new Answer(envelope.allow(), agent, "allowed", "")
                    : refuse(envelope, agent, "the node agent on " + node + " may evict pods on " + node + " only; pod " + namespace + "/"
                            + name + " is " + victim.map(p -> p.nodeName().isEmpty() ? "not bound" : "on " + p.nodeName())
                                    .orElse("not found"));
        }
        return new Answer(envelope.allow(), agent, "allowed", "");
    }

    /** Its own node's YarnRelease, readable, stamped for the broker (a stamp the agent wrote is replaced). */
    private static Answer release(AdmissionEnvelope envelope, String agent, String node, String name, JsonNode object,
            ReleaseProof proof) {
        if (!name.equals(node)) {
            return refuse(envelope, agent, "the node agent on " + node + " may write YarnRelease " + node + " only, not " + name);
        }
        YarnRelease release;
        try {
            release = YarnRelease.parse(object.path("spec"), YarnReleaseResource.KIND + " " + node);
        } catch (InvalidInputException e) {
            return refuse(envelope, agent, e.getMessage());
        }
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        if (!object.path("metadata").path("annotations").isObject()) {
            patch.addObject().put("op", "add").put("path", "/metadata/annotations").set("value", JsonNodeFactory.instance.objectNode());
        }
        patch.addObject().put("op", "add").put("path", "/metadata/annotations/" + YarnReleaseResource.PROOF_ANNOTATION.replace("/", "~1"))
                .put("value", proof.sign(node, release));
        return new Answer(envelope.allowPatched(patch), agent, "allowed", "yarn release stamped");
    }

    private static Answer refuse(AdmissionEnvelope envelope, String agent, String message) {
        return new Answer(envelope.refuse(403, message), agent, "refused", message);
    }

    private static String first(JsonNode values) {
        return values.isArray() && values.size() > 0 && values.get(0).isTextual() ? values.get(0).asText() : null;
    }
}
