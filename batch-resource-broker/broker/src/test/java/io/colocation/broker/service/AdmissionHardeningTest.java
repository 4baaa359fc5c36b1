package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.MetricRegistry;
import io.colocation.broker.admission.AdmissionWebhook;
import io.colocation.broker.webhook.PodMutation;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.localclusters.kube.WebhookClientIdentity;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The probe's attacks on admission (issue 46), against a real kube-apiserver 1.20 calling the webhook with the
 * configuration conf/kubernetes/webhook.yaml ships (by URL instead of its Service): slow clients and pods of many
 * containers do not take admission away, a kube-system pod is never converted, profile typos are refused at apply
 * and a profile that got in anyway is skipped instead of failing every pod, ElasticQuota tree mistakes are refused at
 * apply, an absurd quantity gets a message, and
 * where the API server presents its client certificate the webhook serves no one else.
 */
@ExtendWith(KubeApiServerExtension.class)
class AdmissionHardeningTest {
    private static final Path CONF = Path.of("../../conf");
    private static final String SECRETS = "hardening-system";
    private static final String MUTATING = "hardening-pod-mutating";
    private static final String VALIDATING = "hardening-validating";
    private static final String OPTED_IN = "hardening-batch";
    private static final String REQUIRED = "hardening-required";
    private static final String PLAIN = "hardening-plain";
    private static final String PROFILES = "config.koordinator.sh/v1alpha1";
    private static AdmissionWebhook webhook;

    @BeforeAll
    static void start(KubernetesClient client) throws Exception {
        ColocationObjects.installAdminObjects(client, CONF, List.of("koordinator-system", SECRETS), Map.of());
        namespace(client, OPTED_IN, Map.of("colocation.io/profile-admission", "enabled"));
        namespace(client, REQUIRED, Map.of("colocation.io/profile-admission", "required"));
        namespace(client, PLAIN, Map.of());
        webhook = webhook(client, MUTATING, VALIDATING, null);
        for (HasMetadata o : shipped(client, webhook.port(), MUTATING, VALIDATING)) {
            client.resource(o).create();
        }
        Await.until(Duration.ofSeconds(20), () -> client.admissionRegistration().v1().validatingWebhookConfigurations().withName(VALIDATING)
                .get().getWebhooks().get(0).getClientConfig().getCaBundle() != null && client.admissionRegistration().v1()
                .mutatingWebhookConfigurations().withName(MUTATING).get().getWebhooks().get(0).getClientConfig().getCaBundle() != null);
        profile(client, "everything", "{qosClass: BE, priorityClassName: koord-batch, schedulerName: koord-scheduler}");
    }

    @AfterAll
    static void stop(KubernetesClient client) {
        client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(MUTATING).delete();
        client.admissionRegistration().v1().validatingWebhookConfigurations().withName(VALIDATING).delete();
        if (webhook != null) {
            webhook.stop();
        }
        client.genericKubernetesResources(PROFILES, "ClusterColocationProfile").delete();
        for (String ns : List.of(OPTED_IN, REQUIRED, PLAIN, "kube-system")) {
            client.pods().inNamespace(ns).withLabel("test", "hardening").withGracePeriod(0).delete();
        }
    }

    static AdmissionWebhook webhook(KubernetesClient client, String mutating, String validating, WebhookClientIdentity clientAuth) {
        return webhook(client, mutating, validating, clientAuth, 64, Duration.ofSeconds(10), new MetricRegistry());
    }

    static AdmissionWebhook webhook(KubernetesClient client, String mutating, String validating, WebhookClientIdentity clientAuth,
            int perClient, Duration idleTimeout, MetricRegistry metrics) {
        AdmissionWebhook w = new AdmissionWebhook(client, new AdmissionWebhook.Settings("127.0.0.1", 0,
                new AdmissionWebhook.Certificates(true, SECRETS, mutating + "-tls", List.of("127.0.0.1"), mutating, validating,
                        Duration.ofDays(1), Duration.ofHours(12), Duration.ofHours(1)),
                Duration.ofSeconds(1), PodMutation.Gates.DEFAULTS, Duration.ofSeconds(30),
                clientAuth == null ? null : clientAuth.caPem(), clientAuth == null ? Set.of() : Set.of(WebhookClientIdentity.COMMON_NAME),
                perClient, idleTimeout, null), metrics);
        w.start();
        return w;
    }

    /** The two webhook configurations of conf/kubernetes/webhook.yaml, renamed and calling 127.0.0.1:{@code port} by URL. */
    static List<HasMetadata> shipped(KubernetesClient client, int port, String mutating, String validating) throws Exception {
        List<HasMetadata> out = new ArrayList<>();
        try (InputStream in = Files.newInputStream(CONF.resolve("kubernetes/webhook.yaml"))) {
            for (HasMetadata o : client.load(in).items()) {
                if (o instanceof MutatingWebhookConfiguration m) {
                    m.getMetadata().setName(mutating);
                    m.getWebhooks().forEach(w -> w.setClientConfig(byUrl(w.getClientConfig(), port)));
                    out.add(m);
                } else if (o instanceof ValidatingWebhookConfiguration v) {
                    v.getMetadata().setName(validating);
                    v.getWebhooks().forEach(w -> w.setClientConfig(byUrl(w.getClientConfig(), port)));
                    out.add(v);
                }
            }
        }
        assertEquals(2, out.size(), "webhook.yaml holds a mutating and a validating configuration");
        return out;
    }

    private static WebhookClientConfig byUrl(WebhookClientConfig c, int port) {
        return new WebhookClientConfig(null, null, "https://127.0.0.1:" + port + c.getService().getPath());
    }

    static void namespace(KubernetesClient client, String name, Map<String, String> labels) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).addToLabels(labels).endMetadata().build())
                .createOr(op -> op.update());
    }

    static GenericKubernetesResource profile(KubernetesClient client, String name, String spec) {
        return client.resource(client.getKubernetesSerialization().unmarshal("apiVersion: " + PROFILES
                + "\nkind: ClusterColocationProfile\nmetadata: {name: " + name + "}\nspec: " + spec, GenericKubernetesResource.class))
                .create();
    }

    static Pod pod(KubernetesClient client, String namespace, String name, int containers, String cpu) {
        List<io.fabric8.kubernetes.api.model.Container> list = new ArrayList<>();
        for (int i = 0; i < containers; i++) {
            list.add(new ContainerBuilder().withName("c" + i).withImage("x").withNewResources()
                    .addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity("64Mi")).endResources().build());
        }
        return client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .addToLabels("test", "hardening").endMetadata().withNewSpec().withContainers(list).endSpec().build()).create();
    }

    static boolean converted(Pod p) {
        return "BE".equals(p.getMetadata().getLabels().get("koordinator.sh/qosClass"))
                && p.getSpec().getContainers().get(0).getResources().getRequests().containsKey("kubernetes.io/batch-cpu");
    }

    /** Only namespaces that opted in reach the webhook: on 1.20 nothing else keeps kube-system's pods out. */
    @Test
    void aKubeSystemPodIsNeverConverted(KubernetesClient client) {
        Pod system = pod(client, "kube-system", "hardening-dns", 1, "100m");
        assertFalse(converted(system), system.getMetadata().getLabels().toString());
        assertNotEquals("koord-scheduler", system.getSpec().getSchedulerName());
        assertFalse(converted(pod(client, PLAIN, "not-opted-in", 1, "100m")), "a namespace without the label is not converted");
        assertTrue(converted(pod(client, OPTED_IN, "opted-in", 1, "100m")), "a namespace that opted in is");
    }

    /** The probe's three typos, refused by kubectl apply with the field named: by the CRD's schema or the validating webhook. */
    @Test
    void profileTyposAreRefusedWhenApplied(KubernetesClient client) {
        Map<String, String> typos = Map.of(
                "{selector: {matchExpressions: [{key: app, operator: in, values: [web]}]}}", "operator",
                "{probability: \"50\"}", "probability",
                "{labelSuffixes: {app: \"" + "x".repeat(64) + "\"}}", "labelSuffixes",
                "{selector: {matchExpressions: [{key: app, operator: In}]}}", "spec.selector: for 'in', 'notin' operators",
                "{labels: {app: \"not a value\"}}", "spec.labels.app");
        int i = 0;
        for (Map.Entry<String, String> t : typos.entrySet()) {
            String name = "typo-" + i++;
            KubernetesClientException refused = assertThrows(KubernetesClientException.class, () -> profile(client, name, t.getKey()),
                    t.getKey());
            assertTrue(refused.getCode() == 422 || refused.getCode() == 400, refused.getCode() + " " + refused.getMessage());
            assertTrue(refused.getMessage().contains(t.getValue()), refused.getMessage());
        }
        assertNotNull(profile(client, "a-fine-one", "{probability: \"50%\", selector: {matchLabels: {app: nothing-here}}}"));
    }

    private static GenericKubernetesResource quota(KubernetesClient client, String namespace, String name, String labels, String spec) {
        return client.resource(client.getKubernetesSerialization().unmarshal("apiVersion: scheduling.sigs.k8s.io/v1alpha1\nkind: ElasticQuota\n"
                + "metadata: {name: " + name + ", namespace: " + namespace + ", labels: {" + labels + "}}\nspec: " + spec,
                GenericKubernetesResource.class)).create();
    }

    /** ElasticQuota tree mistakes are refused when applied, each with the quota and the rule named; a parent with children is not deleted. */
    @Test
    void quotaTreeMistakesAreRefusedWhenApplied(KubernetesClient client) {
        String isParent = "quota.scheduling.koordinator.sh/is-parent: \"true\"";
        String underOrg = "quota.scheduling.koordinator.sh/parent: hardening-org";
        quota(client, PLAIN, "hardening-org", isParent, "{min: {cpu: 10}, max: {cpu: 20}}");
        quota(client, PLAIN, "hardening-team", underOrg, "{min: {cpu: 6}, max: {cpu: 20}}");
        Map<String, String> mistakes = Map.of(
                "hardening-min-above-max", "{min: {cpu: 3}, max: {cpu: 2}}|" + "|spec.min.cpu is above spec.max.cpu (cpu:3 > cpu:2)",
                "hardening-orphan", "{max: {cpu: 2}}|quota.scheduling.koordinator.sh/parent: nobody"
                        + "|label quota.scheduling.koordinator.sh/parent nobody: no such ElasticQuota",
                "hardening-greedy", "{min: {cpu: 5}, max: {cpu: 8}}|" + underOrg
                        + "|the children of hardening-org ask min cpu:11 in all, above its min cpu:10",
                "hardening-negative", "{max: {cpu: -1}}||spec.max.cpu: negative quantity",
                "hardening-other-tree", "{max: {cpu: 2}}|" + underOrg + ", quota.scheduling.koordinator.sh/tree-id: batch"
                        + "|label quota.scheduling.koordinator.sh/tree-id batch: its parent hardening-org is in (none: the default tree)");
        for (Map.Entry<String, String> m : mistakes.entrySet()) {
            String[] specLabelsWhy = m.getValue().split("\\|", -1);
            KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                    () -> quota(client, PLAIN, m.getKey(), specLabelsWhy[1], specLabelsWhy[0]), m.getKey());
            assertEquals(422, refused.getCode(), refused.getMessage());
            assertTrue(refused.getMessage().contains("ElasticQuota " + PLAIN + "/" + m.getKey()) && refused.getMessage().contains(specLabelsWhy[2]),
                    refused.getMessage());
        }
        KubernetesClientException delete = assertThrows(KubernetesClientException.class, () -> client.genericKubernetesResources(
                "scheduling.sigs.k8s.io/v1alpha1", "ElasticQuota").inNamespace(PLAIN).withName("hardening-org").delete());
        assertTrue(delete.getMessage().contains("the quota has children (hardening-team)"), delete.getMessage());
        client.genericKubernetesResources("scheduling.sigs.k8s.io/v1alpha1", "ElasticQuota").inNamespace(PLAIN).withName("hardening-team").delete();
        client.genericKubernetesResources("scheduling.sigs.k8s.io/v1alpha1", "ElasticQuota").inNamespace(PLAIN).withName("hardening-org").delete();
    }

    /**
     * A profile that got in before the validating webhook (here: with it away) and that Koordinator would count as
     * matching every pod, or refuse every pod for, is skipped: pods are created, converted by the other profiles.
     */
    @Test
    void aBadProfileThatGotInIsSkippedNotFatal(KubernetesClient client) {
        ValidatingWebhookConfiguration saved = client.admissionRegistration().v1().validatingWebhookConfigurations().withName(VALIDATING).get();
        client.admissionRegistration().v1().validatingWebhookConfigurations().withName(VALIDATING).delete();
        try {
            profile(client, "zz-legacy", "{selector: {matchExpressions: [{key: app, operator: NotIn}]}, labels: {legacy: \"yes\"}}");
        } finally {
            saved.getMetadata().setResourceVersion(null);
            client.resource(saved).create();
        }
        Pod p = pod(client, REQUIRED, "after-a-bad-profile", 1, "100m");
        assertTrue(converted(p), "the good profile still converts it");
        assertFalse(p.getMetadata().getLabels().containsKey("legacy"), "the bad one is not used: " + p.getMetadata().getLabels());
        client.genericKubernetesResources(PROFILES, "ClusterColocationProfile").withName("zz-legacy").delete();
    }

    @Test
    void anAbsurdQuantityIsRefusedWithAMessageNotATrace(KubernetesClient client) {
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> pod(client, OPTED_IN, "absurd", 1, "10000000000000000"));
        // the API server writes the quantity canonically (10P) before the webhook sees it
        assertTrue(refused.getMessage().contains("spec.containers[0].resources.requests.cpu: 10P cores do not fit kubernetes.io/batch-cpu"),
                refused.getMessage());
        assertFalse(refused.getMessage().contains("Exception") || refused.getMessage().contains("<html"), refused.getMessage());
    }

    /** Pods at the container cap, four at once, are converted within the API server's timeout; one past the cap is refused. */
    @Test
    void podsOfManyContainersAreBoundedWork(KubernetesClient client) throws Exception {
        ExecutorService parallel = Executors.newFixedThreadPool(4);
        try {
            List<Future<Pod>> big = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String name = "big-" + i;
                big.add(parallel.submit(() -> pod(client, REQUIRED, name, PodMutation.MAX_CONTAINERS, "10m")));
            }
            for (Future<Pod> f : big) {
                assertTrue(converted(f.get()));
            }
        } finally {
            parallel.shutdown();
        }
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> pod(client, REQUIRED, "too-big", PodMutation.MAX_CONTAINERS + 1, "10m"));
        assertTrue(refused.getMessage().contains("the colocation webhook admits pods of at most 1000"), refused.getMessage());
        // the probe's four pods of 16,000 containers at once took 235-252 s each: now each is refused, saying why
        ExecutorService four = Executors.newFixedThreadPool(4);
        try {
            List<Future<KubernetesClientException>> huge = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String name = "huge-" + i;
                huge.add(four.submit(() -> assertThrows(KubernetesClientException.class, () -> pod(client, REQUIRED, name, 16_000, "10m"))));
            }
            for (Future<KubernetesClientException> f : huge) {
                assertTrue(f.get().getMessage().contains("the pod has 16000 containers"), f.get().getMessage());
            }
        } finally {
            four.shutdown();
        }
    }

    /** The probe's slow bodies, from another address, while pods are created in a namespace that requires the webhook. */
    @Test
    void clientsThatDribbleTheirBodyDoNotStopAdmission(KubernetesClient client) throws Exception {
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                SSLSocket s = tls(InetAddress.getByName("127.0.0.2"), webhook.port());
                OutputStream out = s.getOutputStream();
                out.write("POST /mutate-pod HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n{".getBytes(StandardCharsets.UTF_8));
                out.flush();
                slow.add(s);
            }
            for (int i = 0; i < 10; i++) {
                assertTrue(converted(pod(client, REQUIRED, "during-slow-" + i, 1, "100m")));
            }
        } finally {
            for (Socket s : slow) {
                s.close();
            }
        }
    }

    /** Where the API server presents its client certificate, the webhook asks for it and serves no one else. */
    @Test
    void withClientAuthenticationOnlyTheApiServerIsServed(KubernetesClient client, KubeApiServer apiServer) throws Exception {
        String mutating = "hardening-mtls";
        AdmissionWebhook strict = webhook(client, mutating, "", apiServer.webhookClientIdentity());
        try {
            MutatingWebhookConfiguration m = (MutatingWebhookConfiguration) shipped(client, strict.port(), mutating, "unused").get(0);
            m.getWebhooks().removeIf(w -> !w.getName().equals("mpod-create.colocation.io"));
            m.getWebhooks().get(0).setFailurePolicy("Fail");
            m.getWebhooks().get(0).getNamespaceSelector().getMatchExpressions().get(0).setValues(List.of("mtls"));
            client.resource(m).create();
            namespace(client, "hardening-mtls", Map.of("colocation.io/profile-admission", "mtls"));
            Await.until(Duration.ofSeconds(20), () -> client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(mutating)
                    .get().getWebhooks().get(0).getClientConfig().getCaBundle() != null);
            Pod p = pod(client, "hardening-mtls", "through-mtls", 1, "100m");
            assertTrue(converted(p), "the API server, with its client certificate, is served");
            assertThrows(java.io.IOException.class, () -> {
                SSLSocket s = tls(InetAddress.getLoopbackAddress(), strict.port());
                s.getOutputStream().write("POST /mutate-pod HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}".getBytes(StandardCharsets.UTF_8));
                s.getOutputStream().flush();
                InputStream in = s.getInputStream();
                if (in.read() < 0) {
                    throw new java.io.EOFException("closed in the handshake");
                }
            }, "a client without a certificate is refused");
        } finally {
            client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(mutating).delete();
            client.pods().inNamespace("hardening-mtls").withGracePeriod(0).delete();
            strict.stop();
        }
    }

    private static SSLSocket tls(InetAddress from, int port) throws Exception {
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
            }
        }}, null);
        Socket plain = new Socket();
        plain.bind(new InetSocketAddress(from, 0));
        plain.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        s.setSoTimeout(10_000);
        s.startHandshake();
        return s;
    }
}
