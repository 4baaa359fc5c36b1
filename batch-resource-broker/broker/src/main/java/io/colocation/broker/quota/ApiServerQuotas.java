package io.colocation.broker.quota;

import io.colocation.api.InvalidInputException;
import io.colocation.kube.client.ApiErrors;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaDirectory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quota webhook's view of the cluster, read from the API server at each review: quota writes are rare and a tree
 * check must see the quota written a moment before (an informer could still lag behind it).
 */
public final class ApiServerQuotas implements QuotaReviews.Cluster {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServerQuotas.class);
    private final KubernetesClient client;

    public ApiServerQuotas(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public List<ElasticQuotaSpec> quotas() throws InvalidInputException {
        List<GenericKubernetesResource> items;
        try {
            items = client.genericKubernetesResources(ElasticQuotaSpec.API_VERSION, ElasticQuotaSpec.KIND).inAnyNamespace().list().getItems();
        } catch (KubernetesClientException e) {
            throw new InvalidInputException("cannot list the ElasticQuotas to check the tree: " + ApiErrors.describe(e));
        }
        List<ElasticQuotaSpec> out = new ArrayList<>();
        for (GenericKubernetesResource r : items) {
            try {
                out.add(ElasticQuotaSpec.read(Serialization.jsonMapper().valueToTree(r)));
            } catch (InvalidInputException e) {
                LOG.warn("a stored ElasticQuota that does not read is left out of the check: {}", e.getMessage());
            }
        }
        return out;
    }

    @Override
    public boolean usedByPods(ElasticQuotaSpec quota) throws InvalidInputException {
        ListOptions one = new ListOptionsBuilder().withLimit(1L).build();
        try {
            return !client.pods().inAnyNamespace().withLabel(QuotaDirectory.LABEL_QUOTA_NAME, quota.name()).list(one).getItems().isEmpty()
                    || quota.name().equals(quota.namespace()) && !client.pods().inNamespace(quota.namespace())
                            .withoutLabel(QuotaDirectory.LABEL_QUOTA_NAME).list(one).getItems().isEmpty();
        } catch (KubernetesClientException e) {
            throw new InvalidInputException("cannot list pods to check whether quota " + quota.name() + " holds any: " + ApiErrors.describe(e));
        }
    }
}
