package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.MetricRegistry;
import io.colocation.api.KoordinatorKeys;
import io.colocation.broker.admission.AdmissionWebhook;
import io.colocation.broker.nodeagent.NodeAgentKey;
import io.colocation.broker.nodeagent.ReleaseProof;
import io.colocation.broker.webhook.PodMutation;
import io.colocation.kube.client.NodeAnnotationPatch;
import io.colocation.kube.client.Patches;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.model.node.YarnRelease;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The node agent on its own node (issue 46, item 6), against a real kube-apiserver 1.20: the koordlet's service account
 * with the shipped RBAC and a bound token of its pod on node-a, and the broker's node-agent webhook registered as
 * conf/kubernetes/webhook.yaml registers it. Every cross-node action of the probe is refused; the same on its own node
 * is allowed, and its yarn-release is stamped for the broker.
 */
@ExtendWith(KubeApiServerExtension.class)
class NodeAgentRestrictionTest {
    private static final Path CONF = Path.of("../../conf");
    private static final String NS = "koordinator-system";
    private static final String OWNER = "node-agent-test";
    private static final String CONFIGURATION = "node-agent-test";
    private static AdmissionWebhook webhook;
    private static ReleaseProof proof;
    private static KubernetesClient agent;

    @BeforeAll
    static void start(KubernetesClient client) throws Exception {
        ColocationObjects.installAdminObjects(client, CONF, List.of(NS, "batch"), Map.of());
        try (InputStream in = Files.newInputStream(CONF.resolve("kubernetes/koordlet-daemonset.yaml"))) {
            for (HasMetadata o : client.load(in).items()) {
                if (o instanceof ServiceAccount || o instanceof ClusterRole || o instanceof ClusterRoleBinding) {
                    client.resource(o).createOr(op -> op.update());
                }
            }
        }
        for (String node : List.of("node-a", "node-b")) {
            ColocationObjects.node(client, node, OWNER, 8, 32);
            ColocationObjects.nodeMetric(client, node, OWNER, 1000, 4L << 30, Instant.now());
        }
        Pod agentPod = client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("koordlet-a").withNamespace(NS)
                .endMetadata().withNewSpec().withNodeName("node-a").withServiceAccountName("koordlet").addNewContainer().withName("c")
                .withImage("x").endContainer().endSpec().build()).create();
        bound(client, "batch", "be-a", "node-a");
        bound(client, "kube-system", "dns-b", "node-b");
        proof = NodeAgentKey.load(client, NS, "node-agent-test-key");
        webhook = new AdmissionWebhook(client, new AdmissionWebhook.Settings("127.0.0.1", 0,
                new AdmissionWebhook.Certificates(true, NS, "node-agent-test-tls", List.of("127.0.0.1"), CONFIGURATION, "",
                        Duration.ofDays(1), Duration.ofHours(12), Duration.ofHours(1)),
                Duration.ofSeconds(1), PodMutation.Gates.DEFAULTS, Duration.ofSeconds(30), null, Set.of(), 64, Duration.ofSeconds(10),
                new AdmissionWebhook.NodeAgent(Set.of(NS + ":koordlet"), proof)), new MetricRegistry());
        webhook.start();
        MutatingWebhookConfiguration shipped = (MutatingWebhookConfiguration) AdmissionHardeningTest.shipped(client, webhook.port(),
                CONFIGURATION, "unused").get(0);
        shipped.getWebhooks().removeIf(w -> !w.getName().equals("mnode-agent.colocation.io"));
        client.resource(shipped).create();
        Await.until(Duration.ofSeconds(20), () -> client.admissionRegistration().v1().mutatingWebhookConfigurations()
                .withName(CONFIGURATION).get().getWebhooks().get(0).getClientConfig().getCaBundle() != null);
        TokenRequest token = client.serviceAccounts().inNamespace(NS).withName("koordlet").tokenRequest(new TokenRequestBuilder()
                .withNewSpec().withExpirationSeconds(3600L).withNewBoundObjectRef().withApiVersion("v1").withKind("Pod")
                .withName("koordlet-a").withUid(agentPod.getMetadata().getUid()).endBoundObjectRef().endSpec().build());
        Config config = new ConfigBuilder(client.getConfiguration()).withOauthToken(token.getStatus().getToken()).build();
        agent = new KubernetesClientBuilder().withConfig(config).build();
    }

    private static Pod bound(KubernetesClient client, String namespace, String name, String node) {
        return client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .endMetadata().withNewSpec().withNodeName(node).addNewContainer().withName("c").withImage("x").endContainer().endSpec()
                .build()).create();
    }

    @AfterAll
    static void stop(KubernetesClient client) {
        client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(CONFIGURATION).delete();
        if (agent != null) {
            agent.close();
        }
        if (webhook != null) {
            webhook.stop();
        }
        for (String[] p : new String[][] {{NS, "koordlet-a"}, {"batch", "be-a"}, {"kube-system", "dns-b"}}) {
            client.pods().inNamespace(p[0]).withName(p[1]).withGracePeriod(0).delete();
        }
        ColocationObjects.cleanUp(client, OWNER, "batch");
    }

    private static void refused(String action, Executable attempt) {
        KubernetesClientException e = assertThrows(KubernetesClientException.class, attempt, action);
        assertEquals(403, e.getCode(), action + ": " + e.getMessage());
        assertTrue(e.getMessage().contains("node agent"), action + ": " + e.getMessage());
    }

    private static void patchNode(String node, String mergePatch) {
        agent.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    private static String release() {
        return new YarnRelease(new io.colocation.model.Resources(1000, 1L << 30), Instant.now().plusSeconds(60), "BECPUEvict: test",
                List.of()).toJson();
    }

    @Test
    void everyCrossNodeActionOfTheProbeIsRefused(KubernetesClient client) {
        refused("drain another node's Batch", () -> NodeAnnotationPatch.set(agent, "node-b", "colocation.io/drain-batch", "true"));
        refused("release YARN on another node", () -> NodeAnnotationPatch.set(agent, "node-b", YarnRelease.ANNOTATION, release()));
        refused("label another node", () -> patchNode("node-b", "{\"metadata\":{\"labels\":{\"evil\":\"1\"}}}"));
        refused("taint another node", () -> patchNode("node-b", "{\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]}}"));
        refused("cordon another node", () -> patchNode("node-b", "{\"spec\":{\"unschedulable\":true}}"));
        refused("write another node's NodeMetric status", () -> Patches.mergeStatus(agent, metric("node-b"),
                "{\"status\":{\"nodeMetric\":{\"nodeUsage\":{\"resources\":{\"cpu\":\"0m\",\"memory\":\"0\"}}}}}"));
        refused("evict a kube-system pod of another node", () -> agent.pods().inNamespace("kube-system").withName("dns-b").evict());
        Node b = client.nodes().withName("node-b").get();
        assertFalse(b.getMetadata().getAnnotations().containsKey("colocation.io/drain-batch"));
        assertFalse(b.getMetadata().getLabels().containsKey("evil"));
        assertNotNull(client.pods().inNamespace("kube-system").withName("dns-b").get());
    }

    @Test
    void onItsOwnNodeItAnnotatesReportsAndEvictsAndNothingElse(KubernetesClient client) {
        refused("label its own node", () -> patchNode("node-a", "{\"metadata\":{\"labels\":{\"evil\":\"1\"}}}"));
        refused("cordon its own node", () -> patchNode("node-a", "{\"spec\":{\"unschedulable\":true}}"));
        refused("drain its own node's Batch", () -> NodeAnnotationPatch.set(agent, "node-a", "colocation.io/drain-batch", "true"));

        String release = release();
        NodeAnnotationPatch.set(agent, "node-a", YarnRelease.ANNOTATION, release);
        Map<String, String> annotations = client.nodes().withName("node-a").get().getMetadata().getAnnotations();
        assertEquals(release, annotations.get(YarnRelease.ANNOTATION));
        assertTrue(proof.verifies("node-a", release, annotations.get(ReleaseProof.ANNOTATION)), "stamped for the broker: " + annotations);
        NodeAnnotationPatch.set(client, "node-b", YarnRelease.ANNOTATION, release);
        assertFalse(client.nodes().withName("node-b").get().getMetadata().getAnnotations().containsKey(ReleaseProof.ANNOTATION),
                "what others write is not stamped");

        GenericKubernetesResource written = Patches.mergeStatus(agent, metric("node-a"), "{\"status\":{\"updateTime\":\"" + Instant.now() + "\"}}");
        assertNotNull(written);
        assertTrue(agent.pods().inNamespace("batch").withName("be-a").evict(), "a pod of its own node is evicted");
    }

    private static GenericKubernetesResource metric(String node) {
        return new GenericKubernetesResourceBuilder().withApiVersion(KoordinatorKeys.NODE_METRIC_API_VERSION)
                .withKind(KoordinatorKeys.NODE_METRIC_KIND).withNewMetadata().withName(node).endMetadata().build();
    }
}
