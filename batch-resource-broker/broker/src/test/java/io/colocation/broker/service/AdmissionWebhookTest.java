package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The ClusterColocationProfile webhook as shipped (conf/broker.yml with {@code webhook.enabled}) on a real API server: the
 * API server calls it over TLS with the caBundle the broker keeps current; a profile turns a plain pod into a batch
 * pod (checked on the stored object); a pod no profile selects is stored as submitted; the certificate is renewed
 * again and again while pods are created, and every create is mutated; with the broker gone, pod creates outside the
 * required namespaces go on and inside them fail.
 */
@ExtendWith({KubeApiServerExtension.class, ZooKeeperExtension.class})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdmissionWebhookTest {
    private static final Path CONF = Path.of("../../conf");
    private static final String SELECTED = "webhook-spark";
    private static final String REQUIRED = "webhook-required";
    private static final String PLAIN = "webhook-plain";
    private static final String SECRETS = "webhook-system";
    private static final String CONFIGURATION = "colocation-pod-mutating-test";
    /** Only this test's namespaces reach the webhook: the API server is shared by every test of the module. */
    private static final String TEST_LABEL = "colocation.io/webhook-test";
    private static BrokerApplication app;
    private static int port;

    @BeforeAll
    static void start(KubernetesClient client, KubeApiServer apiServer, LocalZooKeeper zk) throws Exception {
        ColocationObjects.installAdminObjects(client, CONF, List.of("koordinator-system", SECRETS), Map.of());
        namespace(client, SELECTED, Map.of("colocation", "on"));
        namespace(client, REQUIRED, Map.of("colocation", "on", "colocation.io/profile-admission", "required"));
        namespace(client, PLAIN, Map.of());
        client.resource(client.getKubernetesSerialization().unmarshal("""
                apiVersion: config.koordinator.sh/v1alpha1
                kind: ClusterColocationProfile
                metadata: {name: spark-executors}
                spec:
                  namespaceSelector: {matchLabels: {colocation: "on"}}
                  selector: {matchLabels: {spark-role: executor}}
                  qosClass: BE
                  priorityClassName: koord-batch
                  koordinatorPriority: 1000
                  schedulerName: koord-scheduler
                """, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class)).serverSideApply();
        Map<String, String> overrides = Map.ofEntries(
                Map.entry("dw.kubernetes.kubeconfig", apiServer.kubeconfig().toString()),
                Map.entry("dw.kubernetes.sloConfigNamespace", SECRETS),
                Map.entry("dw.zookeeper.connect", zk.connectString()),
                Map.entry("dw.zookeeper.root", "/webhook"),
                Map.entry("dw.auth.mode", "none"),
                Map.entry("dw.server.applicationConnectors[0].port", "0"),
                Map.entry("dw.server.adminConnectors[0].port", "0"),
                Map.entry("dw.webhook.enabled", "true"),
                Map.entry("dw.webhook.bindHost", "127.0.0.1"),
                Map.entry("dw.webhook.port", "0"),
                Map.entry("dw.webhook.hosts", "127.0.0.1"),
                Map.entry("dw.webhook.secretNamespace", SECRETS),
                Map.entry("dw.webhook.configurationName", CONFIGURATION),
                // Renewed every few seconds, so the test sees several renewals while it creates pods.
                Map.entry("dw.webhook.validity", "8s"),
                Map.entry("dw.webhook.renewBefore", "5s"),
                Map.entry("dw.webhook.checkInterval", "500ms"));
        app = KubeFixtures.runShippedBroker(overrides);
        port = app.webhook().orElseThrow().port();
        // As conf/kubernetes/webhook.yaml, but by URL (no Service routing without kube-proxy) and for this test's namespaces.
        client.admissionRegistration().v1().mutatingWebhookConfigurations().resource(configuration(port)).create();
        Await.until(Duration.ofSeconds(20), () -> client.admissionRegistration().v1().mutatingWebhookConfigurations()
                .withName(CONFIGURATION).get().getWebhooks().stream().allMatch(w -> w.getClientConfig().getCaBundle() != null));
    }

    private static MutatingWebhookConfiguration configuration(int port) {
        String url = "https://127.0.0.1:" + port + "/mutate-pod";
        MutatingWebhookConfigurationBuilder b = new MutatingWebhookConfigurationBuilder().withNewMetadata().withName(CONFIGURATION)
                .endMetadata();
        for (boolean required : new boolean[] {false, true}) {
            b.addToWebhooks(new MutatingWebhookBuilder().withName(required ? "mpod-create-required.colocation.io" : "mpod-create.colocation.io")
                    .withNewClientConfig().withUrl(url).endClientConfig()
                    .addNewRule().withApiGroups("").withApiVersions("v1").withResources("pods").withOperations("CREATE").endRule()
                    .withFailurePolicy(required ? "Fail" : "Ignore").withTimeoutSeconds(5).withSideEffects("None")
                    .withAdmissionReviewVersions("v1", "v1beta1")
                    .withNewNamespaceSelector()
                    .addNewMatchExpression().withKey(TEST_LABEL).withOperator("Exists").endMatchExpression()
                    .addNewMatchExpression().withKey("colocation.io/profile-admission").withOperator(required ? "In" : "NotIn")
                    .withValues("required").endMatchExpression()
                    .endNamespaceSelector().build());
        }
        return b.build();
    }

    private static void namespace(KubernetesClient client, String name, Map<String, String> labels) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).addToLabels(labels)
                .addToLabels(TEST_LABEL, "true").endMetadata().build()).createOr(op -> op.update());
    }

    @AfterAll
    static void stop(KubernetesClient client) throws Exception {
        client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(CONFIGURATION).delete();
        if (app != null) {
            app.stop();
        }
        client.genericKubernetesResources("config.koordinator.sh/v1alpha1", "ClusterColocationProfile").withName("spark-executors")
                .delete();
        for (String ns : List.of(SELECTED, REQUIRED, PLAIN)) {
            client.pods().inNamespace(ns).withGracePeriod(0).delete();
        }
    }

    private static Pod create(KubernetesClient client, String namespace, String name, Map<String, String> labels) {
        return client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .addToLabels(labels).endMetadata().withNewSpec().addNewContainer().withName("executor").withImage("spark:3.5.7")
                .withNewResources().addToRequests("cpu", new Quantity("1")).addToRequests("memory", new Quantity("3456Mi"))
                .addToLimits("cpu", new Quantity("1")).addToLimits("memory", new Quantity("3456Mi")).endResources()
                .endContainer().endSpec().build()).create();
    }

    private static void assertBatch(Pod stored) {
        assertEquals("BE", stored.getMetadata().getLabels().get("koordinator.sh/qosClass"));
        assertEquals("1000", stored.getMetadata().getLabels().get("koordinator.sh/priority"));
        assertEquals("koord-batch", stored.getSpec().getPriorityClassName());
        assertEquals(5500, stored.getSpec().getPriority(), "koord-batch of conf/kubernetes/priority-classes.yaml");
        assertEquals("koord-scheduler", stored.getSpec().getSchedulerName());
        var resources = stored.getSpec().getContainers().get(0).getResources();
        assertEquals(Map.of("kubernetes.io/batch-cpu", new Quantity("1k"), "kubernetes.io/batch-memory", new Quantity("3456Mi")),
                resources.getRequests());
        assertEquals(resources.getRequests(), resources.getLimits());
        assertEquals("{\"containers\":{\"executor\":{\"limits\":{\"kubernetes.io/batch-cpu\":\"1k\",\"kubernetes.io/batch-memory\":"
                + "\"3456Mi\"},\"requests\":{\"kubernetes.io/batch-cpu\":\"1k\",\"kubernetes.io/batch-memory\":\"3456Mi\"}}}}",
                stored.getMetadata().getAnnotations().get("node.koordinator.sh/extended-resource-spec"));
    }

    @Test
    @Order(1)
    void aProfileTurnsAPlainPodIntoABatchPodAndLeavesOthersAlone(KubernetesClient client) {
        Pod executor = create(client, SELECTED, "executor-1", Map.of("spark-role", "executor"));
        assertBatch(executor);
        assertBatch(client.pods().inNamespace(SELECTED).withName("executor-1").get());

        Pod driver = create(client, SELECTED, "driver", Map.of("spark-role", "driver"));
        assertEquals(new Quantity("1"), driver.getSpec().getContainers().get(0).getResources().getRequests().get("cpu"));
        assertNull(driver.getMetadata().getLabels().get("koordinator.sh/qosClass"));
        assertTrue(driver.getMetadata().getAnnotations() == null || driver.getMetadata().getAnnotations().isEmpty(),
                "no extended-resource-spec without batch resources: " + driver.getMetadata().getAnnotations());
        Pod elsewhere = create(client, PLAIN, "executor-elsewhere", Map.of("spark-role", "executor"));
        assertEquals(new Quantity("3456Mi"), elsewhere.getSpec().getContainers().get(0).getResources().getLimits().get("memory"));
        assertTrue(elsewhere.getSpec().getSchedulerName() == null || elsewhere.getSpec().getSchedulerName().equals("default-scheduler"));
    }

    @Test
    @Order(2)
    void everyCreateIsMutatedWhileTheCertificateIsRenewedUnderIt(KubernetesClient client) throws Exception {
        Set<String> secrets = new HashSet<>();
        Set<java.math.BigInteger> served = new HashSet<>();
        long until = System.nanoTime() + Duration.ofSeconds(7).toNanos();
        int created = 0;
        while (System.nanoTime() < until) {
            assertBatch(create(client, REQUIRED, "rotating-" + created++, Map.of("spark-role", "executor")));
            Secret secret = client.secrets().inNamespace(SECRETS).withName("colocation-webhook-tls").get();
            secrets.add(secret.getData().get("tls.crt"));
            served.add(servedCertificate().getSerialNumber());
            Thread.sleep(250);
        }
        assertTrue(secrets.size() >= 2, "renewed in the Secret: " + secrets.size() + " certificates over " + created + " creates");
        assertTrue(served.size() >= 2, "served: " + served.size() + " certificates");
        // Renewal keeps the CA: the caBundle the API server trusts did not change.
        String bundle = client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(CONFIGURATION).get()
                .getWebhooks().get(0).getClientConfig().getCaBundle();
        assertEquals(client.secrets().inNamespace(SECRETS).withName("colocation-webhook-tls").get().getData().get("ca.crt"), bundle);
    }

    @Test
    @Order(3)
    void withTheBrokerGonePodsOutsideRequiredNamespacesAreCreatedAsSubmittedAndInsideThemRefused(KubernetesClient client)
            throws Exception {
        app.stop();
        app = null;
        Pod unconverted = create(client, SELECTED, "executor-during-outage", Map.of("spark-role", "executor"));
        assertEquals(new Quantity("1"), unconverted.getSpec().getContainers().get(0).getResources().getRequests().get("cpu"));
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> create(client, REQUIRED, "executor-refused", Map.of("spark-role", "executor")));
        assertTrue(refused.getMessage().contains("mpod-create-required.colocation.io"), refused.getMessage());
        assertNull(client.pods().inNamespace(REQUIRED).withName("executor-refused").get());
    }

    /** The certificate the webhook's port presents now (the chain is checked by the API server, not here). */
    private static X509Certificate servedCertificate() throws Exception {
        X509Certificate[] seen = new X509Certificate[1];
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
                seen[0] = chain[0];
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.startHandshake();
        }
        assertNotEquals(null, seen[0]);
        return seen[0];
    }
}
