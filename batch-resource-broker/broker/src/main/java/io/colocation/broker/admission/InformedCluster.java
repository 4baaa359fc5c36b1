package io.colocation.broker.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.webhook.ColocationProfile;
import io.colocation.broker.webhook.PodMutation;
import io.colocation.kube.client.ApiErrors;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the webhook reads of the cluster, from informers as koord-manager reads it from its cache (docs/koordinator-compatibility.md
 * §14.3): every ClusterColocationProfile, the Namespaces' labels and the PriorityClasses. A profile the API server
 * stored but whose fields do not read (a field of the wrong type where the CRD is lax) is left out with a warning, as a
 * Go informer would fail to decode it.
 */
final class InformedCluster implements PodMutation.Cluster, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InformedCluster.class);
    static final ResourceDefinitionContext PROFILES = new ResourceDefinitionContext.Builder().withGroup("config.koordinator.sh")
            .withVersion("v1alpha1").withKind(ColocationProfile.KIND).withPlural("clustercolocationprofiles").withNamespaced(false)
            .build();

    private final SharedIndexInformer<GenericKubernetesResource> profiles;
    private final SharedIndexInformer<Namespace> namespaces;
    private final SharedIndexInformer<PriorityClass> priorityClasses;
    /**
     * Each profile as last read, by name: a pod create reads the profiles again only where the informer holds a newer
     * resourceVersion (profile null: it does not read, and was warned about once).
     */
    private final Map<String, Read> reads = new ConcurrentHashMap<>();

    private record Read(String resourceVersion, ColocationProfile profile) {
    }

    private InformedCluster(KubernetesClient client) {
        profiles = client.genericKubernetesResources(PROFILES).runnableInformer(0);
        namespaces = client.namespaces().runnableInformer(0);
        priorityClasses = client.scheduling().v1().priorityClasses().runnableInformer(0);
    }

    /** Lists and watches the three kinds; fails with one clear line when one cannot be listed (the CRD not installed). */
    static InformedCluster start(KubernetesClient client, Duration timeout) throws TimeoutException {
        InformedCluster cluster = new InformedCluster(client);
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, SharedIndexInformer<?>> all = Map.of(ColocationProfile.KIND + "s (" + PROFILES.getGroup() + ")", cluster.profiles,
                "Namespaces", cluster.namespaces, "PriorityClasses", cluster.priorityClasses);
        try {
            for (Map.Entry<String, SharedIndexInformer<?>> e : all.entrySet()) {
                try {
                    e.getValue().start().toCompletableFuture().get(Math.max(deadline - System.nanoTime(), 1), TimeUnit.NANOSECONDS);
                } catch (ExecutionException x) {
                    throw new TimeoutException("cannot watch " + e.getKey() + " on " + client.getMasterUrl() + ": "
                            + ApiErrors.describe(x.getCause() == null ? x : x.getCause())
                            + (e.getValue() == cluster.profiles ? " (is conf/kubernetes/crds/config.koordinator.sh_clustercolocationprofiles.yaml applied?)" : ""));
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new TimeoutException("interrupted while listing " + e.getKey());
                } catch (TimeoutException x) {
                    throw new TimeoutException("no initial list of " + e.getKey() + " from " + client.getMasterUrl() + " within "
                            + timeout.toSeconds() + " s");
                }
            }
        } catch (TimeoutException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    @Override
    public List<ColocationProfile> profiles() {
        List<ColocationProfile> out = new ArrayList<>();
        Set<String> names = new java.util.HashSet<>();
        for (GenericKubernetesResource r : profiles.getStore().list()) {
            String name = r.getMetadata().getName();
            names.add(name);
            String version = r.getMetadata().getResourceVersion();
            Read read = reads.get(name);
            if (read == null || !read.resourceVersion().equals(version)) {
                read = new Read(version, read(r, name));
                reads.put(name, read);
            }
            if (read.profile() != null) {
                out.add(read.profile());
            }
        }
        reads.keySet().retainAll(names);
        return out;
    }

    private static ColocationProfile read(GenericKubernetesResource r, String name) {
        JsonNode object = Serialization.jsonMapper().valueToTree(r);
        try {
            return ColocationProfile.read(object, ColocationProfile.KIND + "/" + name);
        } catch (InvalidInputException e) {
            LOG.warn("ClusterColocationProfile {} is left out: {}", name, e.getMessage());
            return null;
        }
    }

    @Override
    public Optional<Map<String, String>> namespaceLabels(String namespace) {
        Namespace ns = namespaces.getStore().getByKey(namespace);
        if (ns == null) {
            return Optional.empty();
        }
        Map<String, String> labels = ns.getMetadata().getLabels();
        return Optional.of(labels == null ? Map.of() : labels);
    }

    @Override
    public Optional<PodMutation.PriorityClassInfo> priorityClass(String name) {
        PriorityClass pc = priorityClasses.getStore().getByKey(name);
        if (pc == null) {
            return Optional.empty();
        }
        return Optional.of(new PodMutation.PriorityClassInfo(pc.getValue() == null ? 0 : pc.getValue(), pc.getPreemptionPolicy()));
    }

    /** Whether all three are still watched (the readiness of the webhook). */
    boolean watching() {
        return profiles.isWatching() && namespaces.isWatching() && priorityClasses.isWatching();
    }

    @Override
    public void close() {
        profiles.close();
        namespaces.close();
        priorityClasses.close();
    }
}
