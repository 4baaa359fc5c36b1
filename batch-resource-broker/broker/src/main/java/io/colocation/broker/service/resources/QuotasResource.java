package io.colocation.broker.service.resources;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.broker.quota.QuotaListing;
import io.colocation.kube.client.ApiErrors;
import io.colocation.quota.ElasticQuotaSpec;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/quotas}: the ElasticQuota tree with what the k8s-scheduler wrote on each quota ({@link QuotaListing}),
 * read from the API server at each request. {@code installed: false} when the ElasticQuota CRD is not.
 */
@Path("/api/v1/quotas")
@Produces(MediaType.APPLICATION_JSON)
public final class QuotasResource {
    private final KubernetesClient client;

    public record Quotas(boolean installed, List<QuotaListing.Row> quotas, Map<String, String> unreadable) {
    }

    public QuotasResource(KubernetesClient client) {
        this.client = client;
    }

    @GET
    public Quotas quotas() {
        List<GenericKubernetesResource> items;
        try {
            items = client.genericKubernetesResources(ElasticQuotaSpec.API_VERSION, ElasticQuotaSpec.KIND).inAnyNamespace().list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return new Quotas(false, List.of(), Map.of());
            }
            throw new WebApplicationException("cannot list ElasticQuotas: " + ApiErrors.describe(e), 503);
        }
        List<JsonNode> objects = items.stream().map(o -> (JsonNode) Serialization.jsonMapper().valueToTree(o)).toList();
        QuotaListing.Listing listing = QuotaListing.of(objects);
        return new Quotas(true, listing.quotas(), listing.unreadable());
    }
}
