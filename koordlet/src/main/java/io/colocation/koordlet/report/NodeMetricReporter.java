package io.colocation.koordlet.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.KoordinatorKeys;
import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.model.slo.NodeMetric;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.HttpURLConnection;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes this node's NodeMetric status (the status subresource, replaced whole, so a figure that went missing
 * leaves the status instead of lingering; a status someone broke is replaced too). Only the object's resourceVersion
 * is needed: the server keeps the spec, whatever it holds. The object itself is the broker's to create; until it
 * exists the agent says so once and keeps measuring.
 */
public final class NodeMetricReporter implements NodeMetricSink {
    private static final Logger LOG = LoggerFactory.getLogger(NodeMetricReporter.class);
    private static final ResourceDefinitionContext CONTEXT = ResourceDefinitionContext.fromResourceType(NodeMetric.class);
    private static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

    public enum Outcome { REPORTED, NO_NODEMETRIC, FAILED }

    private final KubernetesClient client;
    private final String nodeName;
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);

    public NodeMetricReporter(KubernetesClient client, String nodeName) {
        this.client = client;
        this.nodeName = nodeName;
    }

    @Override
    public java.util.Map<String, String> problems() {
        return warnings.current();
    }

    @Override
    public Outcome report(Optional<String> resourceVersion, NodeMetric.Status status) {
        String subject = "NodeMetric " + nodeName;
        if (resourceVersion.isEmpty()) {
            warnings.warn(subject, "does not exist yet; the broker's NodeMetric controller creates it (is the broker running?). "
                    + "Measuring continues; the status is written once it exists");
            return Outcome.NO_NODEMETRIC;
        }
        try {
            write(resourceVersion.get(), status);
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                try {
                    // read as it is: a typed read would fail on the very field someone broke
                    GenericKubernetesResource fresh = client.genericKubernetesResources(CONTEXT).withName(nodeName).get();
                    if (fresh == null) {
                        return report(Optional.empty(), status);
                    }
                    write(fresh.getMetadata().getResourceVersion(), status);
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

    /** Written and answered as a generic object: the server's answer holds the spec, which may be broken. */
    private void write(String resourceVersion, NodeMetric.Status status) {
        GenericKubernetesResource update = new GenericKubernetesResource();
        update.setApiVersion(KoordinatorKeys.NODE_METRIC_API_VERSION);
        update.setKind(KoordinatorKeys.NODE_METRIC_KIND);
        update.setMetadata(new ObjectMetaBuilder().withName(nodeName).withResourceVersion(resourceVersion).build());
        update.setAdditionalProperty("status", JSON.convertValue(status, java.util.Map.class));
        client.genericKubernetesResources(CONTEXT).resource(update).updateStatus();
    }

    private Outcome failed(String subject, KubernetesClientException e) {
        warnings.warn(subject, "status not written: " + (e.getCode() > 0 ? "HTTP " + e.getCode() + " " : "") + e.getMessage());
        return Outcome.FAILED;
    }
}
