package io.colocation.localclusters.kube;

import io.colocation.api.KoordinatorKeys;
import io.colocation.localclusters.process.PartFailedException;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Kubernetes objects a colocation cluster is made of, written to a real API server as the real
 * writers would (the koordlet's NodeMetric status, a NodeManager pod's annotations): for the broker's
 * tests and its publish benchmark. Every node and NodeMetric carries the label {@link #OWNER_LABEL} so
 * its owner can delete them.
 */
public final class ColocationObjects {
    public static final String OWNER_LABEL = "colocation.io/test";
    private static final String YARN_RELEASE_CRD = "colocation.io_yarnreleases.yaml";

    private ColocationObjects() {
    }

    /**
     * Installs the node agent's CRDs and waits until the API server serves them: the NodeMetric CRD (the one in conf/)
     * and, from the same folder, the YarnRelease CRD (the koordlet's graceful YARN releases).
     */
    public static void installNodeMetricCrd(KubernetesClient client, Path crdFile) throws IOException, InterruptedException {
        installCrd(client, crdFile, KoordinatorKeys.NODE_METRIC_API_VERSION, KoordinatorKeys.NODE_METRIC_KIND);
        installCrd(client, crdFile.resolveSibling(YARN_RELEASE_CRD), "colocation.io/v1alpha1", "YarnRelease");
    }

    /** Installs a CRD from a file and waits until the API server serves {@code kind} of {@code apiVersion}. */
    public static void installCrd(KubernetesClient client, Path crdFile, String apiVersion, String kind)
            throws IOException, InterruptedException {
        try (InputStream in = Files.newInputStream(crdFile)) {
            CustomResourceDefinition crd = client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
            client.apiextensions().v1().customResourceDefinitions().resource(crd).serverSideApply();
        }
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                client.genericKubernetesResources(apiVersion, kind).list();
                return;
            } catch (RuntimeException notYet) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        throw new IllegalStateException(kind + " CRD " + crdFile + " not served after 30 s");
    }

    /**
     * What a cluster admin applies before the parts start: the CRDs of {@code conf/kubernetes/crds} (NodeMetric, NodeSLO,
     * PodGroup, ElasticQuota, ClusterColocationProfile), its priority classes, {@code namespaces}, and the slo-controller-config ConfigMap in koordinator-system
     * with {@code sloConfig} (key → JSON value). Anything that fails is a {@link PartFailedException} naming conf/kubernetes.
     */
    public static void installAdminObjects(KubernetesClient client, Path confDir, List<String> namespaces, Map<String, String> sloConfig)
            throws PartFailedException {
        Path kube = confDir.resolve("kubernetes");
        try {
            installNodeMetricCrd(client, kube.resolve("crds/slo.koordinator.sh_nodemetrics.yaml"));
            installCrd(client, kube.resolve("crds/slo.koordinator.sh_nodeslos.yaml"), KoordinatorKeys.NODE_METRIC_API_VERSION, "NodeSLO");
            installCrd(client, kube.resolve("crds/scheduling.sigs.k8s.io_podgroups.yaml"), "scheduling.sigs.k8s.io/v1alpha1", "PodGroup");
            installCrd(client, kube.resolve("crds/scheduling.sigs.k8s.io_elasticquotas.yaml"), "scheduling.sigs.k8s.io/v1alpha1", "ElasticQuota");
            installCrd(client, kube.resolve("crds/config.koordinator.sh_clustercolocationprofiles.yaml"), "config.koordinator.sh/v1alpha1",
                    "ClusterColocationProfile");
            try (InputStream in = Files.newInputStream(kube.resolve("priority-classes.yaml"))) {
                for (var item : client.load(in).items()) {
                    client.resource(item).createOr(NonDeletingOperation::update);
                }
            }
            for (String ns : namespaces) {
                namespace(client, ns);
            }
            client.configMaps().inNamespace("koordinator-system").resource(new ConfigMapBuilder().withNewMetadata()
                    .withName(KoordinatorKeys.SLO_CONFIGMAP_NAME).withNamespace("koordinator-system").endMetadata()
                    .addToData(sloConfig).build()).createOr(NonDeletingOperation::update);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new PartFailedException("cluster objects (conf/kubernetes)", String.valueOf(e.getMessage()), null);
        }
    }

    public static void namespace(KubernetesClient client, String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
                .createOr(op -> op.update());
    }

    /** The slo-controller-config ConfigMap with colocation enabled (and any extra strategy fields, as JSON members). */
    public static void enableColocation(KubernetesClient client, String namespace, String extraJson) {
        String json = "{\"enable\":true" + (extraJson == null || extraJson.isEmpty() ? "" : "," + extraJson) + "}";
        client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
                .withName(KoordinatorKeys.SLO_CONFIGMAP_NAME).withNamespace(namespace).endMetadata()
                .addToData(KoordinatorKeys.COLOCATION_CONFIG_KEY, json).build()).createOr(op -> op.update());
    }

    /**
     * A Node with cpu/memory capacity (= allocatable), as a kubelet would report it: its status written by a merge
     * patch, as a kubelet patches its status, so what a running broker wrote meanwhile (its annotations, the batch
     * resources in capacity and allocatable) stays and no write conflicts with it.
     */
    public static Node node(KubernetesClient client, String name, String owner, int cores, long memoryGi) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).addToLabels(OWNER_LABEL, owner)
                .endMetadata().build()).create();
        Map<String, Quantity> resources = Map.of("cpu", new Quantity(Integer.toString(cores)), "memory",
                new Quantity(memoryGi + "Gi"), "pods", new Quantity("110"));
        return kubeletStatus(client, name, new NodeStatusBuilder().withCapacity(resources).withAllocatable(resources).build());
    }

    /**
     * A schedulable node: the given resources as capacity and allocatable, and without the not-ready taint the API
     * server puts on a new node (no node controller runs here to take it off).
     */
    public static Node readyNode(KubernetesClient client, String name, Map<String, Quantity> resources) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        untaintNotReady(client, name);
        return kubeletStatus(client, name, new NodeStatusBuilder().withCapacity(resources).withAllocatable(resources).build());
    }

    /**
     * Writes a Node's status as a kubelet does: a JSON merge patch of the status subresource, without a
     * resourceVersion. The keys of {@code capacity} and {@code allocatable} it does not name (the broker's batch
     * resources) stay; the lists it names (conditions) are replaced.
     */
    public static Node kubeletStatus(KubernetesClient client, String name, NodeStatus status) {
        String patch = client.getKubernetesSerialization().asJson(Map.of("status", status));
        return client.nodes().withName(name).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    /**
     * Takes off the {@code node.kubernetes.io/not-ready} taint the API server puts on a new Node, as the node lifecycle
     * controller does once the kubelet reports Ready (none runs here): over a fresh read, again on a conflict, other
     * taints kept.
     */
    public static void untaintNotReady(KubernetesClient client, String name) {
        ReadModifyWrite.retried(() -> client.nodes().withName(name).edit(n -> {
            if (n.getSpec() != null && n.getSpec().getTaints() != null) {
                n.getSpec().setTaints(new ArrayList<>(n.getSpec().getTaints().stream()
                        .filter(t -> !"node.kubernetes.io/not-ready".equals(t.getKey())).toList()));
            }
            return n;
        }));
    }

    /** Sets one label of a Node as {@code kubectl label} does: a JSON merge patch without a resourceVersion. */
    public static void labelNode(KubernetesClient client, String name, String key, String value) {
        String patch = client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("labels", Map.of(key, value))));
        client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    /**
     * Creates or updates the node's NodeMetric as the koordlet reports it: node usage, all of it system usage.
     * The broker's NodeMetric controller writes the same object's spec meanwhile, so a conflict (409) is
     * retried from a fresh read, as the koordlet does.
     */
    public static void nodeMetric(KubernetesClient client, String node, String owner, long cpuMilli, long memoryBytes,
            Instant updateTime) {
        var resources = client.genericKubernetesResources(KoordinatorKeys.NODE_METRIC_API_VERSION, KoordinatorKeys.NODE_METRIC_KIND);
        Map<String, Object> usage = Map.of("resources", Map.of("cpu", cpuMilli + "m", "memory", Long.toString(memoryBytes)));
        Map<String, Object> status = Map.of("updateTime", updateTime.toString(),
                "nodeMetric", Map.of("nodeUsage", usage, "systemUsage", usage), "podsMetric", List.of());
        ReadModifyWrite.retried(() -> {
            GenericKubernetesResource existing = resources.withName(node).get();
            if (existing == null) {
                GenericKubernetesResource nm = new GenericKubernetesResource();
                nm.setApiVersion(KoordinatorKeys.NODE_METRIC_API_VERSION);
                nm.setKind(KoordinatorKeys.NODE_METRIC_KIND);
                nm.setMetadata(new ObjectMetaBuilder().withName(node).addToLabels(OWNER_LABEL, owner).build());
                nm.setAdditionalProperty("spec", Map.of());
                existing = resources.resource(nm).create();
            } else if (existing.getMetadata().getLabels() == null || !owner.equals(existing.getMetadata().getLabels().get(OWNER_LABEL))) {
                // created by the broker's controller: label it so cleanUp finds it
                existing.getMetadata().setLabels(new HashMap<>(existing.getMetadata().getLabels() == null
                        ? Map.of() : existing.getMetadata().getLabels()));
                existing.getMetadata().getLabels().put(OWNER_LABEL, owner);
                existing = resources.resource(existing).update();
            }
            existing.setAdditionalProperty("status", status);
            return resources.resource(existing).updateStatus();
        });
    }

    /** A NodeManager pod bound to the node, annotated with its YARN node id (and cluster id when not null). */
    public static void nodeManagerPod(KubernetesClient client, String namespace, String node, String nodeId, String clusterId) {
        Map<String, String> annotations = new HashMap<>();
        annotations.put(KoordinatorKeys.ANNOTATION_YARN_NODE_ID, nodeId);
        if (clusterId != null) {
            annotations.put(KoordinatorKeys.ANNOTATION_YARN_CLUSTER_ID, clusterId);
        }
        client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName("nm-" + node)
                .withNamespace(namespace).withAnnotations(annotations).addToLabels("app.kubernetes.io/component", "node-manager")
                .endMetadata().withNewSpec().withNodeName(node).addNewContainer().withName("nm").withImage("hadoop")
                .endContainer().endSpec().build()).create();
    }

    /**
     * Deletes the owner's nodes, their NodeMetrics and NodeSLOs (also those a broker's controllers created) and
     * the namespace's pods (at once: no kubelet confirms).
     */
    public static void cleanUp(KubernetesClient client, String owner, String namespace) {
        client.pods().inNamespace(namespace).withGracePeriod(0).delete();
        List<String> names = client.nodes().withLabel(OWNER_LABEL, owner).list().getItems().stream()
                .map(n -> n.getMetadata().getName()).toList();
        client.nodes().withLabel(OWNER_LABEL, owner).delete();
        var metrics = client.genericKubernetesResources(KoordinatorKeys.NODE_METRIC_API_VERSION, KoordinatorKeys.NODE_METRIC_KIND);
        metrics.withLabel(OWNER_LABEL, owner).delete();
        for (String name : names) {
            metrics.withName(name).delete();
            try {
                client.genericKubernetesResources(KoordinatorKeys.NODE_METRIC_API_VERSION, "NodeSLO").withName(name).delete();
            } catch (RuntimeException notServed) {
                // no NodeSLO CRD in this API server
            }
        }
    }
}
