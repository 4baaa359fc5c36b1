package io.colocation.harness.koordlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.KoordinatorKeys;
import io.colocation.koordlet.KoordletAssembly;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.model.slo.NodeMetric;
import io.colocation.runtime.YamlConfigLoader;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulated node's koordlet against a real API server: the agent's one assembly reports the replayed load as its
 * NodeMetric, leaves this host's cgroups alone, and a bad load file stops its start naming the file and the field.
 */
@ExtendWith(KubeApiServerExtension.class)
class ReplayingKoordletOnApiServerTest {
    private static final String NS = "replaying-koordlet";
    private static final String NODE = "replayed-node-1";

    @TempDir
    Path tmp;

    @Test
    void reportsTheReplayedLoadAsItsNodeMetric(KubernetesClient client, KubeApiServer api) throws Exception {
        ColocationObjects.installAdminObjects(client, Path.of("../conf"), List.of("koordinator-system", NS), Map.of());
        ColocationObjects.node(client, NODE, NS, 8, 32);
        // the broker's NodeMetric controller would write this spec: report every second, aggregate over 2 s
        client.genericKubernetesResources(KoordinatorKeys.NODE_METRIC_API_VERSION, KoordinatorKeys.NODE_METRIC_KIND)
                .resource(new GenericKubernetesResourceBuilder().withApiVersion(KoordinatorKeys.NODE_METRIC_API_VERSION)
                        .withKind(KoordinatorKeys.NODE_METRIC_KIND).withNewMetadata().withName(NODE).endMetadata()
                        .addToAdditionalProperties("spec", Map.of("metricCollectPolicy", Map.of("reportIntervalSeconds", 1,
                                "aggregateDurationSeconds", 30, "nodeAggregatePolicy", Map.of("durations", List.of("2s")))))
                        .build()).create();
        Pod pod = client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("web-0").endMetadata().withNewSpec()
                .withNodeName(NODE).addNewContainer().withName("app").withImage("app").withNewResources()
                .addToRequests(Map.of("cpu", new Quantity("4"), "memory", new Quantity("8Gi"))).endResources().endContainer().endSpec().build())
                .create();
        pod.getStatus().setPhase("Running");
        pod.getStatus().setQosClass("Burstable");
        client.pods().inNamespace(NS).resource(pod).updateStatus();
        Path load = tmp.resolve("load.yaml");
        Files.writeString(load, """
                system: [{at: 0s, cpu: 500m, memory: 1Gi}]
                pods:
                  %s/web-0: [{at: 0s, cpu: 2, memory: 4Gi}]
                """.formatted(NS));

        try (KoordletAssembly.Running koordlet = ReplayingKoordlet.start(config(api), load, false, Clock.systemUTC())) {
            assertNull(koordlet.qos(), "a simulated node's agent leaves this host's cgroups alone");
            Await.until(Duration.ofSeconds(30), () -> reported(client) != null && reported(client).podsMetric() != null
                    && !reported(client).podsMetric().isEmpty());
            NodeMetric.Status status = reported(client);
            assertEquals(new Quantity("2500m"), status.nodeMetric().nodeUsage().resources().get("cpu"));
            assertEquals(new Quantity("2"), status.podsMetric().get(0).podUsage().resources().get("cpu"));
        }
    }

    @Test
    void aBadLoadFileStopsTheStartNamingTheFileAndTheField(KubeApiServer api) throws Exception {
        Path load = tmp.resolve("bad.yaml");
        Files.writeString(load, "system: [{at: 0s, cpu: 1}]\n");
        KoordletAssembly.StartException e = assertThrows(KoordletAssembly.StartException.class,
                () -> ReplayingKoordlet.start(config(api), load, false, Clock.systemUTC()));
        assertTrue(e.getMessage().startsWith("load curve " + load + ": ") && e.getMessage().contains("system[0]: a point needs at, cpu and memory"),
                e.getMessage());
    }

    /** The shipped {@code conf/koordlet.yml} with the settings the sandbox gives its simulated nodes' agents. */
    private KoordletConfig config(KubeApiServer api) throws Exception {
        Properties settings = new Properties();
        settings.setProperty("koordlet.kubernetes.kubeconfig", api.kubeconfig().toString());
        settings.setProperty("koordlet.yarn.copilotUrl", "");
        settings.setProperty("koordlet.status.port", "0");
        settings.setProperty("koordlet.prediction.checkpointDir", tmp.resolve("checkpoints").toString());
        return new YamlConfigLoader<>(KoordletConfig.class, KoordletConfig.OVERRIDE_PREFIX, KoordletConfig::validate, Map.of("NODE_NAME", NODE),
                settings).load(Path.of("../conf/koordlet.yml"));
    }

    private static NodeMetric.Status reported(KubernetesClient client) {
        NodeMetric nm = client.resources(NodeMetric.class).withName(NODE).get();
        return nm == null ? null : nm.getStatus();
    }
}
