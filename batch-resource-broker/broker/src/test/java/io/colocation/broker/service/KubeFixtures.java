package io.colocation.broker.service;

import io.colocation.api.KoordinatorKeys;
import io.colocation.api.ResourceNames;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.Map;

/** Broker-specific test objects and settings; the cluster's own objects are in test-support's ColocationObjects. */
final class KubeFixtures {
    static final Path CRD = Path.of("../../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml");

    private KubeFixtures() {
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

    /**
     * Runs the shipped service ({@code colocation broker conf/broker.yml}) in this JVM with {@code -Ddw.} overrides (set
     * for the start only, earlier values restored); a start-up failure throws.
     */
    static BrokerApplication runShippedBroker(Map<String, String> overrides) throws Exception {
        java.util.Properties saved = new java.util.Properties();
        overrides.forEach((k, v) -> {
            if (System.getProperty(k) != null) {
                saved.setProperty(k, System.getProperty(k));
            }
            System.setProperty(k, v);
        });
        BrokerApplication app = new BrokerApplication() {
            @Override
            protected void onFatalError(Throwable t) {
                throw new IllegalStateException("broker failed to start", t);
            }
        };
        try {
            app.run("server", "../../conf/broker.yml");
        } finally {
            overrides.keySet().forEach(System::clearProperty);
            saved.forEach((k, v) -> System.setProperty((String) k, (String) v));
        }
        return app;
    }
}
