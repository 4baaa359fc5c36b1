package io.colocation.broker.service.tasks;

import io.colocation.broker.decision.NodeDecision;
import io.colocation.broker.reconcile.BrokerReconciler;
import io.colocation.kube.client.NodeAnnotationPatch;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.regex.Pattern;

/**
 * Drains a node's Batch by annotating the Node ({@code colocation.io/drain-batch: "true"}), so the drain
 * survives a broker failover and shows in {@code kubectl}; undoing removes the annotation. While drained,
 * origin counts as 0: no side gets new room, running work is not killed by the broker.
 */
public final class NodeDrain {
    /** A Node name is a DNS-1123 subdomain. */
    private static final Pattern NODE_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    /** Why a drain did not happen, with the HTTP status that says whose fault it is. */
    public static final class Failure extends Exception {
        private final int status;

        Failure(int status, String message) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    private final KubernetesClient client;
    private final Runnable wake;

    /** @param wake runs after a drain changed, so the next pass comes soon */
    public NodeDrain(KubernetesClient client, Runnable wake) {
        this.client = client;
        this.wake = wake;
    }

    public void set(String node, boolean drained) throws Failure {
        if (node == null || node.length() > 253 || !NODE_NAME.matcher(node).matches()) {
            throw new Failure(400, "\"" + abbreviate(node) + "\" is not a Node name (lower-case letters, digits, '-' and '.')");
        }
        try {
            NodeAnnotationPatch.set(client, node, NodeDecision.ANNOTATION_DRAIN_BATCH, drained ? "true" : null);
            wake.run();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                throw new Failure(404, "no Node " + node);
            }
            if (e.getCode() == 401 || e.getCode() == 403) {
                throw new Failure(502, "the API server refused the broker's credentials to annotate Node " + node + " (HTTP "
                        + e.getCode() + "): check its RBAC (patch on nodes)");
            }
            throw new Failure(503, "cannot annotate Node " + node + ": the API server did not accept it"
                    + (e.getCode() > 0 ? " (HTTP " + e.getCode() + ")" : " (unreachable)"));
        }
    }

    private static String abbreviate(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
