package io.colocation.koordlet.report;

import io.colocation.api.log.DistinctWarnings;
import io.colocation.model.slo.NodeMetric;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes this node's NodeMetric status (the status subresource, replaced whole, so a figure that went missing
 * leaves the status instead of lingering). The object itself is the broker's to create; until it exists the
 * agent says so once and keeps measuring.
 */
public final class NodeMetricReporter {
    private static final Logger LOG = LoggerFactory.getLogger(NodeMetricReporter.class);

    public enum Outcome { REPORTED, NO_NODEMETRIC, FAILED }

    private final KubernetesClient client;
    private final String nodeName;
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);

    public NodeMetricReporter(KubernetesClient client, String nodeName) {
        this.client = client;
        this.nodeName = nodeName;
    }

    public java.util.Map<String, String> problems() {
        return warnings.current();
    }

    public Outcome report(Optional<NodeMetric> cached, NodeMetric.Status status) {
        String subject = "NodeMetric " + nodeName;
        if (cached.isEmpty()) {
            warnings.warn(subject, "does not exist yet; the broker's NodeMetric controller creates it (is the broker running?). "
                    + "Measuring continues; the status is written once it exists");
            return Outcome.NO_NODEMETRIC;
        }
        try {
            write(cached.get(), status);
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                try {
                    NodeMetric fresh = client.resources(NodeMetric.class).withName(nodeName).get();
                    if (fresh == null) {
                        return report(Optional.empty(), status);
                    }
                    write(fresh, status);
                } catch (KubernetesClientException again) {
                    return failed(subject, again);
                }
            } else if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return report(Optional.empty(), status);
            } else {
                return failed(subject, e);
            }
        }
        warnings.resolved(subject);
        return Outcome.REPORTED;
    }

    private void write(NodeMetric current, NodeMetric.Status status) {
        NodeMetric update = new NodeMetric();
        update.setMetadata(new ObjectMetaBuilder().withName(nodeName)
                .withResourceVersion(current.getMetadata().getResourceVersion()).build());
        update.setSpec(current.getSpec());
        update.setStatus(status);
        client.resources(NodeMetric.class).resource(update).updateStatus();
    }

    private Outcome failed(String subject, KubernetesClientException e) {
        warnings.warn(subject, "status not written: " + (e.getCode() > 0 ? "HTTP " + e.getCode() + " " : "") + e.getMessage());
        return Outcome.FAILED;
    }
}
