package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.colocation.api.KoordinatorKeys;
import io.colocation.testsupport.Await;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The manifests in {@code conf/kubernetes/} against a real API server with RBAC on: everything the
 * kustomization lists applies (as {@code kubectl apply -k} would, server-side), the NodeManager example
 * applies, and the broker and the koordlet can do their work with their own ServiceAccount's rights and no
 * more (the test impersonates each ServiceAccount).
 */
@ExtendWith({KubeApiServerExtension.class, ZooKeeperExtension.class})
class KubernetesManifestsTest {
    private static final Path MANIFESTS = Path.of("../../conf/kubernetes");
    private static final String NS = "koordinator-system";
    private static final String OWNER = "manifests";
    private static final long GI = 1024L * 1024 * 1024;

    private Broker broker;

    @AfterEach
    void stop(KubernetesClient client) {
        if (broker != null) {
            broker.stop();
            broker = null;
        }
        ColocationObjects.cleanUp(client, OWNER, "manifests-none");
        // The API server is shared by the module's tests: no other test's pod create may call a webhook of these manifests.
        client.admissionRegistration().v1().mutatingWebhookConfigurations().withName("colocation-pod-mutating").delete();
        client.admissionRegistration().v1().validatingWebhookConfigurations().withName("colocation-validating").delete();
        client.secrets().inNamespace(NS).withName("colocation-webhook-tls").delete();
    }

    /** The files kustomization.yaml lists, in its order. */
    private static List<Path> kustomization() throws IOException {
        JsonNode k = new ObjectMapper(new YAMLFactory()).readTree(MANIFESTS.resolve("kustomization.yaml").toFile());
        List<Path> files = new ArrayList<>();
        k.path("resources").forEach(r -> files.add(MANIFESTS.resolve(r.asText())));
        return files;
    }

    /** Applies every object of a file server-side, as {@code kubectl apply --server-side} does. */
    private static List<HasMetadata> apply(KubernetesClient client, Path file) throws IOException {
        List<HasMetadata> applied = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (HasMetadata item : client.load(in).items()) {
                applied.add(client.resource(item).fieldManager("colocation-manifests-test").forceConflicts().serverSideApply());
            }
        }
        return applied;
    }

    /**
     * Applies the kit; its MutatingWebhookConfiguration stays only when {@code webhooks}: its node-agent webhooks fail
     * closed and call the broker's Service, which no broker is behind here, so every NodeMetric status write of the
     * module's tests would fail while it exists.
     */
    private static void applyKustomization(KubernetesClient client, boolean webhooks) throws Exception {
        for (Path file : kustomization()) {
            assertFalse(apply(client, file).isEmpty(), file + " holds objects");
        }
        if (!webhooks) {
            client.admissionRegistration().v1().mutatingWebhookConfigurations().withName("colocation-pod-mutating").delete();
        }
        ColocationObjects.installCrd(client, MANIFESTS.resolve("crds/slo.koordinator.sh_nodemetrics.yaml"),
                KoordinatorKeys.NODE_METRIC_API_VERSION, KoordinatorKeys.NODE_METRIC_KIND);
        ColocationObjects.installCrd(client, MANIFESTS.resolve("crds/slo.koordinator.sh_nodeslos.yaml"),
                KoordinatorKeys.NODE_METRIC_API_VERSION, "NodeSLO");
        ColocationObjects.installCrd(client, MANIFESTS.resolve("crds/scheduling.sigs.k8s.io_podgroups.yaml"),
                "scheduling.sigs.k8s.io/v1alpha1", "PodGroup");
        ColocationObjects.installCrd(client, MANIFESTS.resolve("crds/config.koordinator.sh_clustercolocationprofiles.yaml"),
                "config.koordinator.sh/v1alpha1", "ClusterColocationProfile");
        ColocationObjects.installCrd(client, MANIFESTS.resolve("crds/colocation.io_yarnreleases.yaml"),
                io.colocation.model.node.YarnReleaseResource.API_VERSION, io.colocation.model.node.YarnReleaseResource.KIND);
    }

    /** A client that acts as a ServiceAccount of koordinator-system (the admin token may impersonate). */
    private static KubernetesClient as(KubernetesClient admin, String serviceAccount) {
        Config config = new ConfigBuilder(admin.getConfiguration())
                .withImpersonateUsername("system:serviceaccount:" + NS + ":" + serviceAccount)
                .withImpersonateGroups("system:serviceaccounts", "system:serviceaccounts:" + NS, "system:authenticated")
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    @Test
    void everyManifestOfTheKustomizationAppliesAndTheExampleToo(KubernetesClient client) throws Exception {
        List<Path> files = kustomization();
        try (var listed = Files.list(MANIFESTS)) {
            List<String> yamls = listed.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml") && !n.contains(".example.")).toList();
            for (String yaml : yamls) {
                assertTrue(files.contains(MANIFESTS.resolve(yaml)), yaml + " is listed in kustomization.yaml");
            }
        }
        applyKustomization(client, false);
        Deployment deployment = client.apps().deployments().inNamespace(NS).withName("colocation-broker").get();
        assertEquals(2, deployment.getSpec().getReplicas());
        DaemonSet koordlet = client.apps().daemonSets().inNamespace(NS).withName("koordlet").get();
        assertNotNull(koordlet);
        assertNotNull(client.configMaps().inNamespace(NS).withName("slo-controller-config").get());
        for (String priorityClass : List.of("koord-prod", "koord-mid", "koord-batch", "koord-free")) {
            assertNotNull(client.scheduling().v1().priorityClasses().withName(priorityClass).get(), priorityClass);
        }
        // applying again changes nothing and fails nothing
        applyKustomization(client, false);

        List<HasMetadata> example = apply(client, MANIFESTS.resolve("nodemanager-daemonset.example.yaml"));
        assertTrue(example.stream().anyMatch(o -> o instanceof DaemonSet), example.toString());
    }

    /** The broker.yml the chart renders into its ConfigMap is a configuration the broker accepts, with the chart's settings. */
    @Test
    void theRenderedBrokerYmlIsAValidConfiguration() throws Exception {
        String yml = null;
        try (InputStream in = Files.newInputStream(MANIFESTS.resolve("broker.yaml"))) {
            for (JsonNode doc : new ObjectMapper(new YAMLFactory()).readerFor(JsonNode.class).<JsonNode>readValues(in).readAll()) {
                if (doc.path("kind").asText().equals("ConfigMap") && doc.at("/metadata/name").asText().equals("colocation-broker")) {
                    yml = doc.at("/data/broker.yml").asText();
                }
            }
        }
        assertNotNull(yml, "broker.yaml holds the ConfigMap colocation-broker with broker.yml");
        Path file = Files.createTempFile("broker", ".yml");
        try {
            Files.writeString(file, yml);
            BrokerConfiguration config = new io.dropwizard.configuration.YamlConfigurationFactory<>(BrokerConfiguration.class,
                    io.dropwizard.jersey.validation.Validators.newValidator(), io.dropwizard.jackson.Jackson.newObjectMapper(), "dw")
                    .build(file.toFile());
            assertEquals("colocation-broker-token", config.auth.tokenSecretName);
            assertTrue(config.webhook.enabled && config.nodeAgent.restricted, "admission and node trust on");
            assertEquals(NS, config.kubernetes.sloConfigNamespace);
            assertEquals(List.of("colocation-broker-webhook.koordinator-system.svc"), config.webhook.hosts);
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void theBrokerPublishesBatchWithItsServiceAccountsRightsAlone(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        applyKustomization(client, false);
        String node = "manifests-node";
        ColocationObjects.node(client, node, OWNER, 16, 64);
        ColocationObjects.nodeMetric(client, node, OWNER, 4000, 16 * GI, Instant.now());
        try (KubernetesClient asBroker = as(client, "colocation-broker")) {
            BrokerConfiguration config = KubeFixtures.config(zk.connectString(), "/manifests", NS, "partitioned");
            broker = new Broker(config, asBroker, Clock.systemUTC());
            broker.start();
            assertTrue(broker.leadership().awaitLeadership(Duration.ofSeconds(20)));
            // node status (batch), node annotations, the NodeMetric spec and the NodeSLO: every write it makes
            Await.until(Duration.ofSeconds(30), () -> {
                long[] batch = KubeFixtures.batchAllocatable(client, node);
                GenericKubernetesResource slo = client.genericKubernetesResources(KoordinatorKeys.NODE_METRIC_API_VERSION, "NodeSLO")
                        .withName(node).get();
                GenericKubernetesResource metric = client.genericKubernetesResources(KoordinatorKeys.NODE_METRIC_API_VERSION,
                        KoordinatorKeys.NODE_METRIC_KIND).withName(node).get();
                return batch != null && batch[0] > 0 && slo != null && metric.get("spec") != null;
            });
            assertEquals(Map.of(), broker.sloControllers().writeErrors(), "no write refused");
            assertTrue(broker.view().notWatching().isEmpty(), "every informer watches: " + broker.view().notWatching());
            // ... and nothing beyond its role
            KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                    () -> asBroker.configMaps().inNamespace("default").list());
            assertEquals(403, refused.getCode());
        }
    }

    @Test
    void theWebhookKeepsItsCertificateAndCaBundleWithItsServiceAccountsRightsAlone(KubernetesClient client) throws Exception {
        applyKustomization(client, true);
        try (KubernetesClient asBroker = as(client, "colocation-broker")) {
            io.colocation.broker.admission.AdmissionWebhook webhook = new io.colocation.broker.admission.AdmissionWebhook(asBroker,
                    new io.colocation.broker.admission.AdmissionWebhook.Settings("127.0.0.1", 0,
                            new io.colocation.broker.admission.AdmissionWebhook.Certificates(true, NS, "colocation-webhook-tls",
                                    List.of("colocation-broker-webhook.koordinator-system.svc"), "colocation-pod-mutating",
                                    "colocation-validating", Duration.ofDays(3650), Duration.ofDays(365), Duration.ofDays(30)),
                            Duration.ofMinutes(1), io.colocation.broker.webhook.PodMutation.Gates.DEFAULTS, Duration.ofSeconds(30),
                            null, java.util.Set.of(), 64, Duration.ofSeconds(10), null),
                    new com.codahale.metrics.MetricRegistry());
            try {
                webhook.start();
                assertTrue(webhook.healthy(), "profiles, namespaces and priority classes are watched");
            } finally {
                webhook.stop();
            }
            String ca = client.secrets().inNamespace(NS).withName("colocation-webhook-tls").get().getData().get("ca.crt");
            var configuration = client.admissionRegistration().v1().mutatingWebhookConfigurations().withName("colocation-pod-mutating").get();
            assertEquals(4, configuration.getWebhooks().size());
            configuration.getWebhooks().forEach(w -> assertEquals(ca, w.getClientConfig().getCaBundle(), w.getName()));
            var validating = client.admissionRegistration().v1().validatingWebhookConfigurations().withName("colocation-validating").get();
            assertEquals(2, validating.getWebhooks().size(), "profiles and ElasticQuotas");
            validating.getWebhooks().forEach(w -> assertEquals(ca, w.getClientConfig().getCaBundle(), w.getName()));
            KubernetesClientException otherSecrets = assertThrows(KubernetesClientException.class,
                    () -> asBroker.secrets().inNamespace("default").list());
            assertEquals(403, otherSecrets.getCode());
        }
    }

    @Test
    void theKoordletReadsWhatItNeedsAndWritesNodeMetricStatusAndItsYarnReleaseButNoNode(KubernetesClient client) throws Exception {
        applyKustomization(client, false);
        String node = "manifests-koordlet-node";
        ColocationObjects.node(client, node, OWNER, 8, 32);
        ColocationObjects.nodeMetric(client, node, OWNER, 1000, 4 * GI, Instant.now());
        try (KubernetesClient asKoordlet = as(client, "koordlet")) {
            asKoordlet.pods().inAnyNamespace().withField("spec.nodeName", node).list();
            assertNotNull(asKoordlet.nodes().withName(node).get());
            asKoordlet.genericKubernetesResources(KoordinatorKeys.NODE_METRIC_API_VERSION, "NodeSLO").list();
            var metrics = asKoordlet.genericKubernetesResources(KoordinatorKeys.NODE_METRIC_API_VERSION, KoordinatorKeys.NODE_METRIC_KIND);
            GenericKubernetesResource metric = metrics.withName(node).get();
            metric.setAdditionalProperty("status", Map.of("updateTime", Instant.now().toString()));
            metrics.resource(metric).updateStatus();

            KubernetesClientException deleteNode = assertThrows(KubernetesClientException.class,
                    () -> asKoordlet.nodes().withName(node).delete());
            assertEquals(403, deleteNode.getCode());
            KubernetesClientException writeSpec = assertThrows(KubernetesClientException.class,
                    () -> metrics.resource(metrics.withName(node).get()).update());
            assertEquals(403, writeSpec.getCode(), "the spec is the broker's");

            // part 2: a BE pod the strategies chose is evicted through the Eviction API
            ColocationObjects.namespace(client, "manifests-none");
            client.pods().inNamespace("manifests-none").resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                    .withName("be-pod").withNamespace("manifests-none").endMetadata().withNewSpec().withNodeName(node)
                    .addNewContainer().withName("c").withImage("x").endContainer().endSpec().build()).create();
            assertTrue(asKoordlet.pods().inNamespace("manifests-none").withName("be-pod").evict());
            // YARN containers chosen for CPU leave through its node's YarnRelease; it changes no Node
            io.colocation.model.node.YarnRelease release = new io.colocation.model.node.YarnRelease(new io.colocation.model.Resources(0, 0),
                    Instant.now().plusSeconds(60), "test", List.of());
            io.colocation.kube.client.YarnReleaseWriter.write(asKoordlet, node, release);
            io.colocation.kube.client.YarnReleaseWriter.write(asKoordlet, node, release);
            assertNotNull(client.resources(io.colocation.model.node.YarnReleaseResource.class).withName(node).get());
            client.resources(io.colocation.model.node.YarnReleaseResource.class).withName(node).delete();
            KubernetesClientException patchNode = assertThrows(KubernetesClientException.class, () -> asKoordlet.nodes().withName(node)
                    .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                            "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}"));
            assertEquals(403, patchNode.getCode(), "the koordlet changes no Node");
        }
    }

    @Test
    void theSchedulerBindsAndHoldsItsLeaseWithItsRightsAlone(KubernetesClient client) throws Exception {
        applyKustomization(client, false);
        String node = "manifests-scheduler-node";
        ColocationObjects.node(client, node, OWNER, 8, 32);
        ColocationObjects.namespace(client, "manifests-none");
        client.pods().inNamespace("manifests-none").resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                .withName("batch-pod").withNamespace("manifests-none").addToLabels(ColocationObjects.OWNER_LABEL, OWNER).endMetadata()
                .withNewSpec().withSchedulerName("koord-scheduler").addNewContainer().withName("c").withImage("x").endContainer()
                .endSpec().build()).create();
        try (KubernetesClient asScheduler = as(client, "koord-scheduler")) {
            asScheduler.pods().inAnyNamespace().list();
            asScheduler.nodes().list();
            asScheduler.genericKubernetesResources(KoordinatorKeys.NODE_METRIC_API_VERSION, KoordinatorKeys.NODE_METRIC_KIND).list();
            asScheduler.genericKubernetesResources("scheduling.sigs.k8s.io/v1alpha1", "PodGroup").inNamespace("manifests-none").list();
            asScheduler.bindings().inNamespace("manifests-none").resource(new io.fabric8.kubernetes.api.model.BindingBuilder()
                    .withNewMetadata().withName("batch-pod").withNamespace("manifests-none").endMetadata()
                    .withNewTarget().withKind("Node").withName(node).endTarget().build()).create();
            assertEquals(node, client.pods().inNamespace("manifests-none").withName("batch-pod").get().getSpec().getNodeName());
            asScheduler.v1().events().inNamespace("manifests-none").resource(new io.fabric8.kubernetes.api.model.EventBuilder()
                    .withNewMetadata().withName("batch-pod.scheduled").withNamespace("manifests-none").endMetadata()
                    .withNewInvolvedObject().withKind("Pod").withName("batch-pod").withNamespace("manifests-none").endInvolvedObject()
                    .withReason("Scheduled").withMessage("test").build()).create();
            var lease = asScheduler.leases().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder()
                    .withNewMetadata().withName("koord-scheduler").withNamespace(NS).endMetadata()
                    .withNewSpec().withHolderIdentity("replica-a").endSpec().build()).create();
            lease.getSpec().setHolderIdentity("replica-b");
            asScheduler.leases().inNamespace(NS).resource(lease).update();
            // fabric8's LeaderElector renews by a patch (LeaseLock.update): a kit without it lost the lead every 10 s
            asScheduler.leases().inNamespace(NS).withName("koord-scheduler").edit(l -> {
                l.getSpec().setHolderIdentity("replica-c");
                return l;
            });
            KubernetesClientException otherLease = assertThrows(KubernetesClientException.class,
                    () -> asScheduler.leases().inNamespace(NS).withName("colocation-broker").get());
            assertEquals(403, otherLease.getCode(), "only its own Lease");
            KubernetesClientException deleteNode = assertThrows(KubernetesClientException.class,
                    () -> asScheduler.nodes().withName(node).delete());
            assertEquals(403, deleteNode.getCode());
        }
        client.leases().inNamespace(NS).withName("koord-scheduler").delete();
    }
}
