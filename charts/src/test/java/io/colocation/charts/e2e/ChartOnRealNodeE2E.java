package io.colocation.charts.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.marcnuri.helm.Helm;
import io.colocation.api.KoordinatorKeys;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The chart installed as a platform team installs it, on a real cluster of one real node ({@link RealCluster}), and
 * everything it promises checked from outside: through the API server, ZooKeeper, the ResourceManager, the host's
 * cgroups and its loopback. In order: {@code helm install}; the koordlet pod's NodeMetric; the broker pods' Batch on
 * the Node and YARN's grant in ZooKeeper, one leader; the NodeManager pod registered with the copilot, and a MapReduce
 * job on the grant; an ordinary pod converted by the webhook, placed by the k8s-scheduler pod and run; a CPU spike
 * suppressed and the batch pod evicted; {@code helm upgrade} (no overcommit, no pod admitted unmutated, the leadership
 * moving once); {@code helm uninstall}; and the kustomize kit with {@code kubectl apply -k}. The logs of every pod and
 * part land in {@code target/e2e-logs} when a check fails.
 *
 * <p>Run by {@code dev/test-e2e.sh} (it builds the images first): {@code -De2e.images=DIR}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(ChartOnRealNodeE2E.KeepLogsOnFailure.class)
class ChartOnRealNodeE2E {
    static final String NS = "koordinator-system";
    static final String RELEASE = "colocation";
    static final Path CHART = Path.of("colocation");
    static final Path KIT = Path.of("../conf/kubernetes");
    static final Path LOGS = Path.of("target/e2e-logs");
    private static final String BATCH_NS = "e2e-batch";
    private static final String JOBS_NS = "e2e-yarn";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    static RealCluster cluster;
    static KubernetesClient client;
    static CuratorFramework zk;
    static Path values;

    @BeforeAll
    static void cluster() throws Exception {
        String images = System.getProperty("e2e.images");
        if (images == null || images.isBlank()) {
            throw new IllegalStateException("-De2e.images=DIR is missing: run dev/test-e2e.sh, which builds the images first");
        }
        Path work = Files.createTempDirectory("colocation-e2e-");
        cluster = RealCluster.start(work, Path.of(images));
        client = cluster.client();
        zk = cluster.zooKeeper().newClient();
        values = E2eValues.write(cluster, work.resolve("values.yaml"));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    static Helm chart() {
        return new Helm(CHART);
    }

    @Test
    @Order(1)
    void helmInstallBringsEveryPartUp() throws Exception {
        long t0 = System.nanoTime();
        chart().install().withName(RELEASE).withNamespace(NS).createNamespace().withKubeConfig(cluster.api().kubeconfig())
                .withValuesFile(values).waitReady().withTimeout(420).call();
        for (String deployment : List.of("colocation-broker", "koord-scheduler")) {
            Deployment d = client.apps().deployments().inNamespace(NS).withName(deployment).get();
            assertEquals(2, d.getStatus().getReadyReplicas(), deployment + " has two ready replicas");
        }
        // Helm waits for a DaemonSet's pods only down to its maxUnavailable (1): on one node, not at all
        for (String daemonSet : List.of("koordlet", "yarn-nodemanager")) {
            within(Duration.ofMinutes(3), daemonSet + " is ready on the node", () -> {
                Integer ready = client.apps().daemonSets().inNamespace(NS).withName(daemonSet).get().getStatus().getNumberReady();
                return ready != null && ready == 1;
            });
        }
        System.out.printf("e2e: helm install ready in %.0f s%n", (System.nanoTime() - t0) / 1e9);
    }

    @Test
    @Order(2)
    void theKoordletPodReportsTheNodesNodeMetric() throws Exception {
        within(Duration.ofMinutes(2), "the koordlet reports a NodeMetric for " + cluster.nodeName, () -> {
            GenericKubernetesResource metric = client.genericKubernetesResources(KoordinatorKeys.NODE_METRIC_API_VERSION,
                    KoordinatorKeys.NODE_METRIC_KIND).withName(cluster.nodeName).get();
            if (metric == null) {
                return false;
            }
            JsonNode status = JSON.valueToTree(metric.getAdditionalProperties()).path("status");
            return status.at("/nodeMetric/nodeUsage/resources/cpu").isTextual() && status.path("updateTime").isTextual();
        });
    }

    @Test
    @Order(3)
    void theBrokerPodsPublishBatchOnTheNodeAndYarnsGrantWithOneLeader() throws Exception {
        within(Duration.ofMinutes(2), "Batch published on the Node", () -> batchCpuMilli() > 0);
        String nodeId = cluster.nodeName + ":8041";
        within(Duration.ofMinutes(2), "YARN's grant for " + nodeId + " in ZooKeeper", () -> grant(nodeId) != null);
        JsonNode totals = brokerApi("/api/v1/cluster");
        assertNotNull(totals.get("leader").asText(null), "a leader: " + totals);
        assertTrue(totals.get("leader").asText().startsWith("colocation-broker-"), "one of the broker pods leads: " + totals);
    }

    @Test
    @Order(4)
    void theNodeManagerPodRegistersCarriesTheCopilotAndRunsAMapReduceJobOnTheGrant() throws Exception {
        String nodeId = cluster.nodeName + ":8041";
        within(Duration.ofMinutes(2), "the NodeManager pod registers with the ResourceManager as " + nodeId,
                () -> runningNode(nodeId) != null);
        HttpResponse<String> copilot = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:8049/information"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, copilot.statusCode(), "the copilot answers on the host's loopback: " + copilot.body());
        JsonNode grant = grant(nodeId);
        within(Duration.ofMinutes(1), "the NodeManager's capacity is the grant " + grant, () -> {
            NodeReport report = runningNode(nodeId);
            JsonNode g = grant(nodeId);
            return report != null && g != null && report.getCapability().getMemorySize() == g.path("memoryMB").asLong();
        });
        Pod job = MapReduceJobs.pi(client, JOBS_NS, cluster);
        within(Duration.ofMinutes(5), "the MapReduce job " + job.getMetadata().getName() + " succeeds",
                () -> MapReduceJobs.finished(client, job));
        assertEquals("Succeeded", client.pods().inNamespace(JOBS_NS).withName(job.getMetadata().getName()).get().getStatus().getPhase(),
                "pi's client pod exits 0 (its log: target/e2e-logs)");
    }

    @Test
    @Order(5)
    void anOrdinaryPodIsConvertedPlacedByTheSchedulerPodAndRun() throws Exception {
        BatchWorkloads.optIn(client, BATCH_NS);
        Pod pod = BatchWorkloads.ordinaryPod(client, BATCH_NS, "batch-burner", List.of("/burner", "1", "0"));
        assertEquals("koord-batch", pod.getSpec().getPriorityClassName(), "converted by the webhook");
        assertEquals("koord-scheduler", pod.getSpec().getSchedulerName());
        assertTrue(pod.getSpec().getContainers().get(0).getResources().getRequests().containsKey("kubernetes.io/batch-cpu"),
                "asks for Batch: " + pod.getSpec().getContainers().get(0).getResources());
        within(Duration.ofMinutes(3), "the batch pod runs (Batch handed back by YARN after the job)", () -> "Running".equals(phase(BATCH_NS, "batch-burner")));
        List<Event> scheduled = client.v1().events().inNamespace(BATCH_NS).list().getItems().stream()
                .filter(e -> "batch-burner".equals(e.getInvolvedObject().getName()) && "Scheduled".equals(e.getReason())).toList();
        assertTrue(scheduled.stream().anyMatch(e -> "koord-scheduler".equals(e.getSource() == null ? null : e.getSource().getComponent())
                || (e.getReportingComponent() != null && e.getReportingComponent().contains("koord-scheduler"))),
                "placed by the k8s-scheduler pod: " + scheduled);
    }

    @Test
    @Order(6)
    void aCpuSpikeIsSuppressedAndTheBatchPodEvicted() throws Exception {
        BatchWorkloads.onlinePod(client, "default", "online-spike", List.of("/burner", "2", "0"));
        try {
            within(Duration.ofMinutes(1), "the online pod runs", () -> "Running".equals(phase("default", "online-spike")));
            within(Duration.ofMinutes(1), "the koordlet suppresses the BE tier below a core",
                    () -> BatchWorkloads.beQuotaMicros() > 0 && BatchWorkloads.beQuotaMicros() < 100_000);
            within(Duration.ofMinutes(2), "the koordlet evicts the starved batch pod",
                    () -> client.pods().inNamespace(BATCH_NS).withName("batch-burner").get() == null);
            // the Event follows the eviction
            within(Duration.ofSeconds(30), "an Event says why", () -> !cpuEvictions().isEmpty());
            assertEquals(1, cpuEvictions().size(), "one Event says why: " + cpuEvictions());
            assertEquals("Running", phase("default", "online-spike"), "the online pod stays");
        } finally {
            // two burning cores would starve every later step
            client.pods().inNamespace("default").withName("online-spike").withGracePeriod(0).delete();
        }
    }

    @Test
    @Order(7)
    void helmUpgradeRollsWithoutOvercommitUnmutatedPodsOrASecondLeaderChange() throws Exception {
        long epochBefore = epoch();
        AtomicBoolean rolling = new AtomicBoolean(true);
        List<String> problems = new CopyOnWriteArrayList<>();
        List<Integer> samples = new CopyOnWriteArrayList<>();
        Thread watch = new Thread(() -> {
            int i = 0;
            while (rolling.get()) {
                try {
                    String name = "during-upgrade-" + i++;
                    Pod pod = BatchWorkloads.ordinaryPod(client, BATCH_NS, name, List.of("/pause"));
                    if (!"koord-batch".equals(pod.getSpec().getPriorityClassName())) {
                        problems.add(name + " was admitted unmutated; the API server on the webhook: " + webhookCalls());
                    }
                    client.pods().inNamespace(BATCH_NS).withName(name).withGracePeriod(0).delete();
                    JsonNode totals = brokerApi("/api/v1/cluster");
                    samples.add(1);
                    if (totals.path("overcommit").path("cpuMilli").asLong() > 0 || totals.path("overcommit").path("memoryBytes").asLong() > 0) {
                        problems.add("overcommit " + totals.path("overcommit"));
                    }
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 400 && e.getCode() != 403) {
                        problems.add("pod create failed: " + e.getMessage());
                    }
                } catch (Exception e) {
                    // the broker Service between replicas: no sample this round
                }
            }
        }, "e2e-upgrade-watch");
        watch.start();
        long t0 = System.nanoTime();
        try {
            chart().upgrade().withName(RELEASE).withNamespace(NS).withKubeConfig(cluster.api().kubeconfig()).withValuesFile(values)
                    .set("broker.jvmOptions", "-Xmx600m").set("scheduler.jvmOptions", "-Xmx400m").waitReady().withTimeout(420).call();
            within(Duration.ofMinutes(3), "both Deployments rolled", () -> rolled("colocation-broker") && rolled("koord-scheduler"));
        } finally {
            rolling.set(false);
            watch.join(30_000);
        }
        System.out.printf("e2e: helm upgrade rolled in %.0f s; %d samples during it%n", (System.nanoTime() - t0) / 1e9, samples.size());
        assertEquals(List.of(), problems);
        assertTrue(samples.size() >= 5, "sampled during the upgrade: " + samples.size());
        within(Duration.ofMinutes(1), "a leader after the upgrade", () -> epoch() > epochBefore);
        Thread.sleep(5_000);
        assertEquals(epochBefore + 1, epoch(), "the leadership moved once");
    }

    @Test
    @Order(8)
    void helmUninstallLeavesNothingButTheCrds() throws Exception {
        Helm.uninstall(RELEASE).withNamespace(NS).withKubeConfig(cluster.api().kubeconfig()).call();
        within(Duration.ofMinutes(2), "every object of the release gone", () -> leftOver().isEmpty());
        assertNotNull(client.apiextensions().v1().customResourceDefinitions().withName("nodemetrics.slo.koordinator.sh").get(),
                "the CRDs stay, as Helm leaves them");
        client.namespaces().withName(BATCH_NS).delete();
        client.namespaces().withName(JOBS_NS).delete();
    }

    @Test
    @Order(9)
    void theKustomizeKitAppliesAndRuns() throws Exception {
        Path overlay = KustomizeOverlay.write(cluster, values.getParent().resolve("overlay"), KIT);
        Kubectl.run(cluster.api().kubeconfig(), "apply", "-k", overlay.toString());
        within(Duration.ofMinutes(4), "the kit's parts ready", () -> ready("Deployment", "colocation-broker")
                && ready("Deployment", "koord-scheduler") && ready("DaemonSet", "koordlet"));
        within(Duration.ofMinutes(2), "the kit's broker publishes Batch", () -> batchCpuMilli() > 0);
        Kubectl.run(cluster.api().kubeconfig(), "delete", "-k", overlay.toString(), "--wait=true");
    }

    // --- what the checks read ---

    /** The API server's last lines about the pod webhook (a failed call it ignored says why a pod went unmutated). */
    static List<String> webhookCalls() {
        try (var lines = Files.lines(cluster.api().log())) {
            List<String> calls = lines.filter(l -> l.contains("mpod-create") || l.contains("colocation-broker-webhook")).toList();
            return calls.subList(Math.max(0, calls.size() - 5), calls.size());
        } catch (Exception e) {
            return List.of("(log unreadable: " + e.getMessage() + ")");
        }
    }

    static List<Event> cpuEvictions() {
        return client.v1().events().inNamespace(BATCH_NS).list().getItems().stream()
                .filter(e -> "batch-burner".equals(e.getInvolvedObject().getName()) && e.getMessage() != null
                        && e.getMessage().contains("BECPUEvict")).toList();
    }

    static long batchCpuMilli() {
        Node node = client.nodes().withName(cluster.nodeName).get();
        Quantity q = node == null || node.getStatus().getAllocatable() == null ? null
                : node.getStatus().getAllocatable().get("kubernetes.io/batch-cpu");
        return q == null ? 0 : q.getNumericalAmount().longValue();
    }

    static JsonNode grant(String nodeId) {
        try {
            byte[] data = zk.getData().forPath(RealCluster.YARN_ROOT + "/yarn/" + RealCluster.YARN_CLUSTER + "/grants/" + nodeId);
            return JSON.readTree(data);
        } catch (Exception e) {
            return null;
        }
    }

    /** The broker's leader epoch in ZooKeeper; -1 when unreadable. */
    static long epoch() {
        try {
            byte[] data = zk.getData().forPath(RealCluster.YARN_ROOT + "/epoch");
            return Long.parseLong(new String(data, StandardCharsets.UTF_8).trim());
        } catch (Exception e) {
            return -1;
        }
    }

    static NodeReport runningNode(String nodeId) {
        List<NodeReport> nodes;
        try {
            nodes = cluster.yarn().runningNodes();
        } catch (Exception e) {
            throw new IllegalStateException("cannot list the ResourceManager's nodes", e);
        }
        return nodes.stream().filter(n -> n.getNodeId().toString().equals(nodeId)).findFirst().orElse(null);
    }

    /** A GET of the broker's API through its Service (kube-proxy's rules on this host). */
    static JsonNode brokerApi(String path) throws IOException, InterruptedException {
        String ip = client.services().inNamespace(NS).withName("colocation-broker").get().getSpec().getClusterIP();
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + ip + ":8080" + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET " + path + ": HTTP " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    static String phase(String namespace, String name) {
        Pod p = client.pods().inNamespace(namespace).withName(name).get();
        return p == null || p.getStatus() == null ? null : p.getStatus().getPhase();
    }

    static boolean rolled(String deployment) {
        Deployment d = client.apps().deployments().inNamespace(NS).withName(deployment).get();
        return d.getStatus().getObservedGeneration() >= d.getMetadata().getGeneration()
                && d.getStatus().getUpdatedReplicas() != null && d.getStatus().getUpdatedReplicas() == 2
                && d.getStatus().getReplicas() == 2 && d.getStatus().getReadyReplicas() != null && d.getStatus().getReadyReplicas() == 2;
    }

    static boolean ready(String kind, String name) {
        if (kind.equals("Deployment")) {
            Deployment d = client.apps().deployments().inNamespace(NS).withName(name).get();
            return d != null && d.getStatus() != null && d.getStatus().getReadyReplicas() != null
                    && d.getStatus().getReadyReplicas().equals(d.getSpec().getReplicas());
        }
        var ds = client.apps().daemonSets().inNamespace(NS).withName(name).get();
        return ds != null && ds.getStatus() != null && ds.getStatus().getNumberReady() != null && ds.getStatus().getNumberReady() >= 1;
    }

    /** What is left of the release: any object labelled as its, in any namespace or none, and the namespace's pods. */
    static List<String> leftOver() {
        List<String> left = new ArrayList<>();
        Map<String, String> label = Map.of("app.kubernetes.io/instance", RELEASE);
        List<HasMetadata> found = new ArrayList<>();
        found.addAll(client.apps().deployments().inAnyNamespace().withLabels(label).list().getItems());
        found.addAll(client.apps().daemonSets().inAnyNamespace().withLabels(label).list().getItems());
        found.addAll(client.configMaps().inAnyNamespace().withLabels(label).list().getItems());
        found.addAll(client.secrets().inAnyNamespace().withLabels(label).list().getItems());
        found.addAll(client.services().inAnyNamespace().withLabels(label).list().getItems());
        found.addAll(client.serviceAccounts().inAnyNamespace().withLabels(label).list().getItems());
        found.addAll(client.rbac().clusterRoles().withLabels(label).list().getItems());
        found.addAll(client.rbac().clusterRoleBindings().withLabels(label).list().getItems());
        found.addAll(client.rbac().roles().inAnyNamespace().withLabels(label).list().getItems());
        found.addAll(client.scheduling().v1().priorityClasses().withLabels(label).list().getItems());
        found.addAll(client.admissionRegistration().v1().mutatingWebhookConfigurations().withLabels(label).list().getItems());
        found.addAll(client.admissionRegistration().v1().validatingWebhookConfigurations().withLabels(label).list().getItems());
        found.addAll(client.pods().inNamespace(NS).list().getItems());
        found.addAll(client.secrets().inNamespace(NS).list().getItems().stream()
                .filter(s -> !"kubernetes.io/service-account-token".equals(s.getType())).toList());
        for (HasMetadata o : found) {
            left.add(o.getKind() + " " + (o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace() + "/")
                    + o.getMetadata().getName());
        }
        return left;
    }

    /** Polls {@code condition} every half second; an exception (an API server hiccup, a Service between pods) is a no. */
    static void within(Duration timeout, String what, Supplier<Boolean> condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                if (Boolean.TRUE.equals(condition.get())) {
                    return;
                }
            } catch (RuntimeException e) {
                last = " (last error: " + e + ")";
            }
            Thread.sleep(500);
        }
        throw new AssertionError("not within " + timeout.toSeconds() + " s: " + what + last);
    }

    /** Keeps every log of the cluster and its pods when a check fails, before anything is torn down. */
    static final class KeepLogsOnFailure implements TestWatcher {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            if (cluster == null) {
                return;
            }
            try {
                Path dir = LOGS.resolve(context.getRequiredTestMethod().getName());
                cluster.keepLogs(dir);
                Files.writeString(dir.resolve("objects.txt"), Diagnostics.describe(client));
                System.err.println("e2e: logs of every part and pod in " + dir.toAbsolutePath());
            } catch (IOException | RuntimeException e) {
                System.err.println("e2e: could not keep the logs: " + e);
            }
        }
    }
}
