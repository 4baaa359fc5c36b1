package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.MetricRegistry;
import io.colocation.api.KoordinatorKeys;
import io.colocation.broker.admission.AdmissionWebhook;
import io.colocation.broker.nodeagent.NodeAgentKey;
import io.colocation.broker.nodeagent.ReleaseProof;
import io.colocation.broker.webhook.PodMutation;
import io.colocation.kube.client.KubernetesClients;
import io.colocation.kube.client.NodeAnnotationPatch;
import io.colocation.kube.client.Patches;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.kube.client.YarnReleaseWriter;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.node.YarnReleaseResource;
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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The node agent on its own node (issues 46 and 64), against a real kube-apiserver 1.20: the koordlet's service account
 * with the shipped RBAC and a bound token of its pod on node-a, and the broker's node-agent webhooks registered as
 * conf/kubernetes/webhook.yaml registers them. Every cross-node action of the probe is refused, by RBAC (the agent
 * writes no Node) or by the webhook; its own node's release and report are allowed, and the release is stamped for the
 * broker. With the broker stopped the same actions are still refused, except, before Kubernetes 1.28, an eviction
 * (docs/webhook.md), and nobody else is held up.
 */
@ExtendWith(KubeApiServerExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
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
        shipped.getWebhooks().removeIf(w -> !w.getName().startsWith("mnode-agent"));
        assertEquals(2, shipped.getWebhooks().size(), "the node agent's writes (failing closed) and its evictions");
        client.resource(shipped).create();
        Await.until(Duration.ofSeconds(20), () -> client.admissionRegistration().v1().mutatingWebhookConfigurations()
                .withName(CONFIGURATION).get().getWebhooks().get(0).getClientConfig().getCaBundle() != null);
        TokenRequest token = client.serviceAccounts().inNamespace(NS).withName("koordlet").tokenRequest(new TokenRequestBuilder()
                .withNewSpec().withExpirationSeconds(3600L).withNewBoundObjectRef().withApiVersion("v1").withKind("Pod")
                .withName("koordlet-a").withUid(agentPod.getMetadata().getUid()).endBoundObjectRef().endSpec().build());
        Config config = KubernetesClients.withoutRetries(new ConfigBuilder(client.getConfiguration()).withOauthToken(token.getStatus()
                .getToken()).build()); // as the koordlet's client
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
        client.resources(YarnReleaseResource.class).withName("node-a").delete();
        client.resources(YarnReleaseResource.class).withName("node-b").delete();
        for (String[] p : new String[][] {{NS, "koordlet-a"}, {"batch", "be-a"}, {"kube-system", "dns-b"}}) {
            client.pods().inNamespace(p[0]).withName(p[1]).withGracePeriod(0).delete();
        }
        ColocationObjects.cleanUp(client, OWNER, "batch");
    }

    /** Refused by the node-agent webhook ({@code byWebhook}) or by RBAC. */
    private static void refused(String action, boolean byWebhook, Executable attempt) {
        KubernetesClientException e = assertThrows(KubernetesClientException.class, attempt, action);
        assertEquals(403, e.getCode(), action + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(byWebhook ? "node agent" : "cannot patch resource \"nodes\""), action + ": " + e.getMessage());
    }

    private static void patchNode(String node, String mergePatch) {
        agent.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    private static YarnRelease release() {
        return new YarnRelease(new io.colocation.model.Resources(1000, 1L << 30), Instant.now().plusSeconds(60), "BECPUEvict: test",
                List.of());
    }

    /** Every Node change of the probe, on node-b and on its own node: the agent has no right to change a Node at all. */
    private static void noNodeChange() {
        for (String node : List.of("node-a", "node-b")) {
            refused("drain " + node + "'s Batch", false, () -> NodeAnnotationPatch.set(agent, node, "colocation.io/drain-batch", "true"));
            refused("label " + node, false, () -> patchNode(node, "{\"metadata\":{\"labels\":{\"evil\":\"1\"}}}"));
            refused("taint " + node, false, () -> patchNode(node, "{\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]}}"));
            refused("cordon " + node, false, () -> patchNode(node, "{\"spec\":{\"unschedulable\":true}}"));
        }
    }

    @Test
    @Order(1)
    void everyCrossNodeActionOfTheProbeIsRefused(KubernetesClient client) {
        noNodeChange();
        refused("release YARN on another node", true, () -> YarnReleaseWriter.write(agent, "node-b", release()));
        refused("write another node's NodeMetric status", true, () -> Patches.mergeStatus(agent, metric("node-b"),
                "{\"status\":{\"nodeMetric\":{\"nodeUsage\":{\"resources\":{\"cpu\":\"0m\",\"memory\":\"0\"}}}}}"));
        refused("evict a kube-system pod of another node", true, () -> agent.pods().inNamespace("kube-system").withName("dns-b").evict());
        Node b = client.nodes().withName("node-b").get();
        assertFalse(b.getMetadata().getAnnotations().containsKey("colocation.io/drain-batch"));
        assertFalse(b.getMetadata().getLabels().containsKey("evil"));
        assertNotNull(client.pods().inNamespace("kube-system").withName("dns-b").get());
        assertNull(client.resources(YarnReleaseResource.class).withName("node-b").get());
    }

    @Test
    @Order(2)
    void onItsOwnNodeItReleasesReportsAndEvictsAndNothingElse(KubernetesClient client) throws Exception {
        YarnRelease release = release();
        YarnReleaseWriter.write(agent, "node-a", release);
        YarnReleaseResource written = client.resources(YarnReleaseResource.class).withName("node-a").get();
        assertEquals(release, YarnRelease.parse(written.getSpec(), "YarnRelease node-a"));
        assertTrue(proof.verifies("node-a", release, written.proof()), "stamped for the broker: " + written.getMetadata());
        YarnReleaseResource forged = YarnReleaseResource.of("node-b", release);
        forged.getMetadata().setAnnotations(Map.of(YarnReleaseResource.PROOF_ANNOTATION, proof.sign("node-a", release)));
        client.resource(forged).create(); // an admin's, with a stamp copied from node-a: the broker verifies it for node-b and ignores it
        YarnReleaseResource b = client.resources(YarnReleaseResource.class).withName("node-b").get();
        assertFalse(proof.verifies("node-b", YarnRelease.parse(b.getSpec(), "YarnRelease node-b"), b.proof()),
                "what others write is not stamped, and a stamp is for one node");

        GenericKubernetesResource report = Patches.mergeStatus(agent, metric("node-a"), "{\"status\":{\"updateTime\":\"" + Instant.now() + "\"}}");
        assertNotNull(report);
        assertTrue(agent.pods().inNamespace("batch").withName("be-a").evict(), "a pod of its own node is evicted");
    }

    /**
     * The probe's outage: with no broker answering, the agent still writes no Node and no other node's release or report
     * (the webhook fails closed; its own wait too); only an eviction passes before 1.28, as docs/webhook.md says. The
     * cluster's own work (a Node label, a cordon, an eviction by an admin, as kubectl drain does) is not held up.
     */
    @Test
    @Order(3)
    void withTheBrokerStoppedTheNodeRestrictionHolds(KubernetesClient client) throws Exception {
        webhook.stop();
        webhook = null;
        noNodeChange();
        long started = System.nanoTime();
        for (String node : List.of("node-b", "node-a")) {
            KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> YarnReleaseWriter.write(agent, node, release()));
            assertTrue(e.getMessage().contains("failed calling webhook"), e.getMessage());
            e = assertThrows(KubernetesClientException.class, () -> Patches.mergeStatus(agent, metric(node),
                    "{\"status\":{\"updateTime\":\"" + Instant.now() + "\"}}"));
            assertTrue(e.getMessage().contains("failed calling webhook"), e.getMessage());
        }
        long millis = java.time.Duration.ofNanos(System.nanoTime() - started).toMillis();
        assertTrue(millis < 5_000, "refused at once, not retried (the koordlet's QoS round waits on it): " + millis + " ms");
        client.nodes().withName("node-b").edit(n -> new io.fabric8.kubernetes.api.model.NodeBuilder(n).editMetadata()
                .addToLabels("cordoned-by-admin", "yes").endMetadata().editSpec().withUnschedulable(true).endSpec().build());
        assertTrue(client.nodes().withName("node-b").get().getSpec().getUnschedulable());
        bound(client, "batch", "drained-b", "node-b");
        assertTrue(client.pods().inNamespace("batch").withName("drained-b").evict(), "kubectl drain's eviction passes");
        assertTrue(agent.pods().inNamespace("kube-system").withName("dns-b").evict(),
                "before 1.28 the agent's eviction of another node's pod passes while no broker answers (docs/webhook.md)");
    }

    private static GenericKubernetesResource metric(String node) {
        return new GenericKubernetesResourceBuilder().withApiVersion(KoordinatorKeys.NODE_METRIC_API_VERSION)
                .withKind(KoordinatorKeys.NODE_METRIC_KIND).withNewMetadata().withName(node).endMetadata().build();
    }
}
