package io.colocation.broker.service;

import io.colocation.api.KoordinatorKeys;
import io.colocation.api.ResourceNames;
import io.colocation.broker.kube.ClusterView;
import io.colocation.broker.kube.NodeManagerIdentity;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Kubernetes objects the broker tests need, on the real test API server. */
final class KubeFixtures {
    static final Path CRD = Path.of("../../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml");
    static final String TEST_LABEL = "colocation.io/test";

    private KubeFixtures() {
    }

    /** Installs the NodeMetric CRD of conf/ (once per API server) and waits until it is served. */
    static void installNodeMetricCrd(KubernetesClient client) throws IOException, InterruptedException {
        try (InputStream in = Files.newInputStream(CRD)) {
            CustomResourceDefinition crd = client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
            client.apiextensions().v1().customResourceDefinitions().resource(crd).serverSideApply();
        }
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                client.genericKubernetesResources(ClusterView.NODE_METRIC_API_VERSION, "NodeMetric").list();
                return;
            } catch (RuntimeException notYet) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        throw new IllegalStateException("NodeMetric CRD not served after 30 s");
    }

    static void namespace(KubernetesClient client, String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).createOr(
                op -> op.update());
    }

    /** The slo-controller-config ConfigMap with colocation enabled (and any extra strategy fields). */
    static void enableColocation(KubernetesClient client, String namespace, String extraJson) {
        String json = "{\"enable\":true" + (extraJson == null || extraJson.isEmpty() ? "" : "," + extraJson) + "}";
        client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
                .withName(KoordinatorKeys.SLO_CONFIGMAP_NAME).withNamespace(namespace).endMetadata()
                .addToData(KoordinatorKeys.COLOCATION_CONFIG_KEY, json).build()).createOr(op -> op.update());
    }

    /** A Node with cpu/memory capacity (= allocatable), labelled for cleanup. */
    static Node node(KubernetesClient client, String name, String testId, int cores, long memoryGi) {
        Node node = new NodeBuilder().withNewMetadata().withName(name).addToLabels(TEST_LABEL, testId).endMetadata().build();
        client.nodes().resource(node).create();
        Map<String, Quantity> resources = Map.of("cpu", new Quantity(Integer.toString(cores)), "memory",
                new Quantity(memoryGi + "Gi"), "pods", new Quantity("110"));
        Node withStatus = client.nodes().withName(name).get();
        withStatus.setStatus(new io.fabric8.kubernetes.api.model.NodeStatusBuilder().withCapacity(resources)
                .withAllocatable(resources).build());
        return client.nodes().resource(withStatus).updateStatus();
    }

    /** Deletes the test's nodes, NodeMetrics and the pods of its namespace (at once: no kubelet confirms). */
    static void cleanUp(KubernetesClient client, String testId, String namespace) {
        client.pods().inNamespace(namespace).withGracePeriod(0).delete();
        client.nodes().withLabel(TEST_LABEL, testId).delete();
        client.genericKubernetesResources(ClusterView.NODE_METRIC_API_VERSION, "NodeMetric").withLabel(TEST_LABEL, testId).delete();
    }

    /** Creates or updates the node's NodeMetric: node usage, all of it system usage (no pod metrics). */
    static void nodeMetric(KubernetesClient client, String node, String testId, long cpuMilli, long memoryBytes, Instant updateTime) {
        var resources = client.genericKubernetesResources(ClusterView.NODE_METRIC_API_VERSION, "NodeMetric");
        GenericKubernetesResource existing = resources.withName(node).get();
        if (existing == null) {
            GenericKubernetesResource nm = new GenericKubernetesResource();
            nm.setApiVersion(ClusterView.NODE_METRIC_API_VERSION);
            nm.setKind("NodeMetric");
            nm.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(node)
                    .addToLabels(TEST_LABEL, testId).build());
            nm.setAdditionalProperty("spec", Map.of());
            existing = resources.resource(nm).create();
        }
        Map<String, Object> usage = Map.of("resources", Map.of("cpu", cpuMilli + "m", "memory", Long.toString(memoryBytes)));
        existing.setAdditionalProperty("status", Map.of("updateTime", updateTime.toString(),
                "nodeMetric", Map.of("nodeUsage", usage, "systemUsage", usage), "podsMetric", List.of()));
        resources.resource(existing).updateStatus();
    }

    /** A NodeManager pod on the node, annotated with its YARN node id (and cluster id when not null). */
    static void nodeManagerPod(KubernetesClient client, String namespace, String node, String nodeId, String clusterId) {
        Map<String, String> annotations = new HashMap<>();
        annotations.put(NodeManagerIdentity.ANNOTATION_NODE_ID, nodeId);
        if (clusterId != null) {
            annotations.put(NodeManagerIdentity.ANNOTATION_CLUSTER_ID, clusterId);
        }
        client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName("nm-" + node)
                .withNamespace(namespace).withAnnotations(annotations).addToLabels("app.kubernetes.io/component", "node-manager")
                .endMetadata().withNewSpec().withNodeName(node).addNewContainer().withName("nm").withImage("hadoop")
                .endContainer().endSpec().build()).create();
    }

    /** A Batch pod bound to the node (as a scheduler's binding would leave it), requesting batch resources. */
    static Pod batchPod(KubernetesClient client, String namespace, String name, String node, long cpuMilli, long memoryBytes) {
        Map<String, Quantity> requests = Map.of(ResourceNames.BATCH_CPU, new Quantity(Long.toString(cpuMilli)),
                ResourceNames.BATCH_MEMORY, new Quantity(Long.toString(memoryBytes)));
        return client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name)
                .withNamespace(namespace).addToLabels(KoordinatorKeys.LABEL_PRIORITY_CLASS, "koord-batch").endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("task").withImage("batch")
                .withNewResources().withRequests(requests).withLimits(requests).endResources().endContainer().endSpec().build())
                .create();
    }

    /** batch-cpu/batch-memory in the node's status.allocatable, or null when absent. */
    static long[] batchAllocatable(KubernetesClient client, String node) {
        Node n = client.nodes().withName(node).get();
        Map<String, Quantity> a = n.getStatus().getAllocatable();
        if (!a.containsKey(ResourceNames.BATCH_CPU)) {
            return null;
        }
        return new long[] {Long.parseLong(a.get(ResourceNames.BATCH_CPU).getAmount()),
            Long.parseLong(a.get(ResourceNames.BATCH_MEMORY).getAmount())};
    }

    static BrokerConfiguration config(String zkConnect, String root, String sloNamespace, String policy) {
        BrokerConfiguration c = new BrokerConfiguration();
        c.zookeeper.connect = zkConnect;
        c.zookeeper.root = root;
        c.zookeeper.sessionTimeoutMs = 6_000;
        c.kubernetes.sloConfigNamespace = sloNamespace;
        c.arbitration.policy = policy;
        c.sync.intervalMs = 200;
        c.sync.debounceMs = 20;
        c.yarn.reportStaleSeconds = 3;
        return c;
    }

    static BrokerConfiguration.YarnClusterSettings pluginCluster(String id) {
        BrokerConfiguration.YarnClusterSettings s = new BrokerConfiguration.YarnClusterSettings();
        s.id = id;
        s.mode = "plugin";
        return s;
    }
}
