package io.colocation.broker.service;

import io.colocation.broker.decision.NodeDecision;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.yarn.YarnApplications;
import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnContractCodec;
import io.colocation.broker.cli.StatusCommand;
import io.colocation.broker.reconcile.BrokerReconciler;
import io.colocation.testsupport.Await;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Dropwizard service as shipped: {@code conf/broker.yml} with a few {@code -Ddw.} overrides, against
 * a real API server and ZooKeeper. REST API, health checks, Prometheus exposition, token auth, drain.
 */
@ExtendWith({KubeApiServerExtension.class, ZooKeeperExtension.class})
class BrokerApplicationTest {
    private static final String TEST = "application";
    private static final String NS = "broker-application";
    private static final String NODE = "app-node-1";
    private static final String TOKEN = "a-test-token-of-32-characters-xx";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static BrokerApplication app;
    private static String api;
    private static String admin;

    @BeforeAll
    static void start(KubernetesClient client, KubeApiServer apiServer, LocalZooKeeper zk) throws Exception {
        ColocationObjects.installNodeMetricCrd(client, KubeFixtures.CRD);
        ColocationObjects.namespace(client, NS);
        ColocationObjects.enableColocation(client, NS, null);
        ColocationObjects.node(client, NODE, TEST, 8, 32);
        ColocationObjects.nodeMetric(client, NODE, TEST, 2000, 8L << 30, Instant.now());
        Map<String, String> overrides = Map.of(
                "dw.kubernetes.kubeconfig", apiServer.kubeconfig().toString(),
                "dw.kubernetes.sloConfigNamespace", NS,
                "dw.zookeeper.connect", zk.connectString(),
                "dw.zookeeper.root", "/app",
                "dw.auth.token", TOKEN,
                "dw.server.applicationConnectors[0].port", "0",
                "dw.server.adminConnectors[0].port", "0",
                "dw.sync.intervalMs", "200");
        app = KubeFixtures.runShippedBroker(overrides);
        List<Integer> ports = app.ports();
        api = "http://127.0.0.1:" + ports.get(0);
        admin = "http://127.0.0.1:" + ports.get(1);
        assertTrue(app.broker().leadership().awaitLeadership(Duration.ofSeconds(20)));
    }

    @AfterAll
    static void stop(KubernetesClient client) throws Exception {
        if (app != null) {
            app.stop();
        }
        ColocationObjects.cleanUp(client, TEST, NS);
    }

    private static HttpResponse<String> send(String method, String url, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode get(String url) throws Exception {
        HttpResponse<String> r = send("GET", url, null);
        assertEquals(200, r.statusCode(), url + ": " + r.body());
        return JSON.readTree(r.body());
    }

    /** {@code colocation status} against this broker, against nothing and against a port that is not a broker's. */
    @Test
    void statusShowsTheClusterOnOneScreenAndSaysWhyWhenItCannot() throws Exception {
        Await.until(Duration.ofSeconds(20), () -> app.broker().ledger().get(NODE)
                .map(l -> !l.drained() && l.kubernetesGrant().cpuMilli() == 2800).orElse(false));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = StatusCommand.run(new String[] {"--top", "5"}, Map.of("COLOCATION_BROKER_URL", api), new PrintStream(out, true),
                new PrintStream(err, true));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(text.contains("policy partitioned"), text);
        assertTrue(text.contains("leader this replica (epoch "), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith(NODE) && l.contains("2.8") && l.endsWith("ok")), text);

        ByteArrayOutputStream refusedErr = new ByteArrayOutputStream();
        int refused = StatusCommand.run(new String[] {"--broker", "http://127.0.0.1:1"}, Map.of(), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(refusedErr, true));
        assertEquals(1, refused);
        assertTrue(refusedErr.toString(StandardCharsets.UTF_8).contains("cannot reach the broker at http://127.0.0.1:1"),
                refusedErr.toString(StandardCharsets.UTF_8));

        ByteArrayOutputStream adminErr = new ByteArrayOutputStream();
        int notBroker = StatusCommand.run(new String[] {"--broker", admin}, Map.of(), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(adminErr, true));
        assertEquals(1, notBroker);
        // the admin port guards all but its probes and metrics: pointed there, status says what answered
        assertTrue(adminErr.toString(StandardCharsets.UTF_8).contains("answered HTTP 401"), adminErr.toString(StandardCharsets.UTF_8));

        assertEquals(2, StatusCommand.run(new String[] {"--top", "many"}, Map.of(), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())));
        assertEquals(2, StatusCommand.run(new String[] {"--broker", "localhost:8080"}, Map.of(), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())));
    }

    /** The ElasticQuotas of the test's namespace, the CRD installed. */
    private static io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<io.fabric8.kubernetes.api.model.GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList, io.fabric8.kubernetes.client.dsl.Resource<
            io.fabric8.kubernetes.api.model.GenericKubernetesResource>> elasticQuotas(KubernetesClient client) throws Exception {
        ColocationObjects.installCrd(client, Path.of("../../conf/kubernetes/crds/scheduling.sigs.k8s.io_elasticquotas.yaml"),
                "scheduling.sigs.k8s.io/v1alpha1", "ElasticQuota");
        return client.genericKubernetesResources("scheduling.sigs.k8s.io/v1alpha1", "ElasticQuota").inNamespace(NS);
    }

    /** Creates the ElasticQuota whose metadata and spec {@code yaml} gives. */
    private static void create(KubernetesClient client, String yaml) throws Exception {
        elasticQuotas(client).resource(client.getKubernetesSerialization().unmarshal("apiVersion: scheduling.sigs.k8s.io/v1alpha1\n"
                + "kind: ElasticQuota\n" + yaml, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class)).create();
    }

    /**
     * {@code GET /api/v1/quotas} and {@code colocation status} show the ElasticQuota tree with what the k8s-scheduler
     * wrote on each quota (written here as the scheduler writes it: its annotations and status.used).
     */
    @Test
    void quotasShowTheTreeWithWhatTheSchedulerWrote(KubernetesClient client) throws Exception {
        var quotas = elasticQuotas(client);
        create(client, """
                metadata: {name: app-org, labels: {quota.scheduling.koordinator.sh/is-parent: "true"}}
                spec: {min: {kubernetes.io/batch-cpu: "8k"}, max: {kubernetes.io/batch-cpu: "16k"}}
                """);
        create(client, """
                metadata:
                  name: app-team
                  labels: {quota.scheduling.koordinator.sh/parent: app-org}
                  annotations: {quota.scheduling.koordinator.sh/runtime: '{"kubernetes.io/batch-cpu":"6k"}'}
                spec: {min: {kubernetes.io/batch-cpu: "4k"}, max: {kubernetes.io/batch-cpu: "8k"}}
                """);
        quotas.withName("app-team").subresource("status").patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), "{\"status\": {\"used\": {\"kubernetes.io/batch-cpu\": \"6k\"}}}");
        try {
            JsonNode listed = get(api + "/api/v1/quotas");
            assertTrue(listed.path("installed").asBoolean());
            List<String> rows = new java.util.ArrayList<>();
            listed.path("quotas").forEach(q -> rows.add(q.path("name").asText() + "@" + q.path("depth").asInt() + ":" + q.path("state").asText()));
            assertEquals(List.of("app-org@1:unknown", "app-team@2:borrowing"), rows, listed.toString());
            assertEquals("6k", listed.path("quotas").get(1).path("used").path("kubernetes.io/batch-cpu").asText());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertEquals(0, StatusCommand.run(new String[] {"--top", "0"}, Map.of("COLOCATION_BROKER_URL", api), new PrintStream(out, true),
                    new PrintStream(new ByteArrayOutputStream(), true)));
            String text = out.toString(StandardCharsets.UTF_8);
            assertTrue(text.contains("quota " + NS + "/app-org: min kubernetes.io/batch-cpu 8k, runtime -, used - (not yet written)"), text);
        } finally {
            quotas.withName("app-team").delete();
            quotas.withName("app-org").delete();
        }
    }

    /**
     * The leader keeps a tree over Batch's {@code total-resource}: the Batch origin of the ledger's nodes summed, on the
     * Batch resources the root's max names, and writes it again when it is far from that (here: a stale 1 milli-core).
     */
    @Test
    void keepsTheTotalOfATreeOverBatch(KubernetesClient client) throws Exception {
        var quotas = elasticQuotas(client);
        create(client, """
                metadata:
                  name: batch-root
                  labels: {quota.scheduling.koordinator.sh/is-root: "true", quota.scheduling.koordinator.sh/tree-id: batch,
                           quota.scheduling.koordinator.sh/is-parent: "true"}
                  annotations: {quota.scheduling.koordinator.sh/total-resource: '{"kubernetes.io/batch-cpu":"1"}'}
                spec: {max: {kubernetes.io/batch-cpu: "1000k"}}
                """);
        create(client, """
                metadata:
                  name: batch-team
                  labels: {quota.scheduling.koordinator.sh/tree-id: batch, quota.scheduling.koordinator.sh/parent: batch-root}
                spec: {min: {kubernetes.io/batch-cpu: "1k"}, max: {kubernetes.io/batch-cpu: "1000k"}}
                """);
        try {
            String[] written = new String[1];
            String[] expected = new String[1];
            Await.until(Duration.ofSeconds(30), () -> {
                long origin = app.broker().ledger().all().stream().mapToLong(n -> n.origin().cpuMilli()).sum();
                expected[0] = "{\"kubernetes.io/batch-cpu\":\"" + io.colocation.quota.QuotaUnits.write(io.colocation.quota.ResourceAmounts.of(
                        "kubernetes.io/batch-cpu", origin)).get("kubernetes.io/batch-cpu") + "\"}";
                written[0] = quotas.withName("batch-root").get().getMetadata().getAnnotations()
                        .get("quota.scheduling.koordinator.sh/total-resource");
                return origin >= 2800 && expected[0].equals(written[0]);
            });
            assertEquals(expected[0], written[0], "only the Batch resources the root's max names");
            // kubectl get elasticquotas: the server's table, with the tree's columns
            var http = client.getHttpClient();
            String table = http.sendAsync(http.newHttpRequestBuilder().uri(client.getMasterUrl() + "apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/"
                    + NS + "/elasticquotas").header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").build(), String.class)
                    .get(10, java.util.concurrent.TimeUnit.SECONDS).body();
            JsonNode t = JSON.readTree(table);
            assertEquals(List.of("Name", "Parent", "Tree", "YARN-Queue", "Runtime", "Used", "Age"),
                    JSON.convertValue(t.path("columnDefinitions").findValuesAsText("name"), List.class), table);
            assertEquals("batch", t.path("rows").get(0).path("cells").get(2).asText(), table);
            // The tree's runtimes are the broker's: its leaf asks nothing (no pods), so may hold nothing; what it uses too.
            Await.until(Duration.ofSeconds(30), () -> {
                var leaf = quotas.withName("batch-team").get();
                return leaf.getMetadata().getAnnotations().containsKey("quota.scheduling.koordinator.sh/runtime")
                        && leaf.getAdditionalProperties().get("status") != null;
            });
            assertEquals("{\"kubernetes.io/batch-cpu\":\"0\"}", quotas.withName("batch-team").get().getMetadata().getAnnotations()
                    .get("quota.scheduling.koordinator.sh/runtime"));
            JsonNode listed = get(api + "/api/v1/quotas");
            JsonNode leaf = null;
            for (JsonNode q : listed.path("quotas")) {
                if (q.path("name").asText().equals("batch-team")) {
                    leaf = q;
                }
            }
            assertEquals("batch", leaf.path("tree").asText(), listed.toString());
            assertTrue(leaf.path("yarnQueue").isNull(), listed.toString());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertEquals(0, StatusCommand.run(new String[] {"--top", "0"}, Map.of("COLOCATION_BROKER_URL", api), new PrintStream(out, true),
                    new PrintStream(new ByteArrayOutputStream(), true)));
            String text = out.toString(StandardCharsets.UTF_8);
            assertTrue(text.contains("  quota " + NS + "/batch-team: min kubernetes.io/batch-cpu 1k, runtime kubernetes.io/batch-cpu 0, used {}, "
                    + "lending"), text);
        } finally {
            quotas.withName("batch-team").delete();
            quotas.withName("batch-root").delete();
        }
    }

    @Test
    void servesTheLedgerTotalsHealthAndPrometheus() throws Exception {
        // The ledger is updated once the pass's writes are done, so it may trail the node status briefly.
        Await.until(Duration.ofSeconds(20), () -> app.broker().ledger().get(NODE)
                .map(l -> !l.drained() && l.kubernetesGrant().cpuMilli() == 2800).orElse(false));
        JsonNode node = get(api + "/api/v1/nodes/" + NODE);
        // 8 cores x 60 % - 2 cores = 2.8 cores; no NodeManager, so all of it is Kubernetes'.
        assertEquals(2800, node.path("origin").path("cpuMilli").asLong());
        assertEquals(2800, node.path("kubernetesGrant").path("cpuMilli").asLong());
        assertEquals("partitioned", node.path("policy").asText());
        assertTrue(node.path("explain").size() > 3, node.toString());
        assertTrue(get(api + "/api/v1/nodes").path("items").size() >= 1);
        assertEquals(404, send("GET", api + "/api/v1/nodes/no-such-node", null).statusCode());

        JsonNode cluster = get(api + "/api/v1/cluster");
        assertTrue(cluster.path("origin").path("cpuMilli").asLong() >= 2800, cluster.toString());
        assertTrue(cluster.path("epoch").asLong() >= 1, cluster.toString());

        HttpResponse<String> health = send("GET", admin + "/healthcheck", null);
        JsonNode checks = JSON.readTree(health.body());
        for (String check : List.of("kubernetes", "zookeeper", "leadership")) {
            assertTrue(checks.path(check).path("healthy").asBoolean(), check + ": " + health.body());
        }
        // The default YARN cluster's plugin has never reported: the check says so without failing the broker.
        assertTrue(checks.has("yarn-__default_yarn_cluster__"), health.body());

        String prometheus = send("GET", admin + "/prometheus", null).body();
        assertTrue(prometheus.contains("colocation_node_grant{node=\"" + NODE + "\",side=\"kubernetes\",resource=\"cpu_millicores\",} 2800.0"),
                prometheus.lines().filter(l -> l.contains(NODE)).toList().toString());
        assertTrue(prometheus.contains("colocation_overcommit_total"), "overcommit counter");
        assertTrue(prometheus.contains("colocation_leader 1.0"));
    }

    @Test
    void drainNeedsTheTokenAndFreezesTheNodesBatch(KubernetesClient client) throws Exception {
        assertEquals(401, send("POST", api + "/api/v1/nodes/" + NODE + "/drain", null).statusCode());
        assertEquals(401, send("POST", api + "/api/v1/nodes/" + NODE + "/drain", "wrong").statusCode());
        assertEquals(401, send("POST", admin + "/tasks/resync", null).statusCode());
        assertEquals(404, send("POST", api + "/api/v1/nodes/no-such-node/drain", TOKEN).statusCode());

        assertEquals(200, send("POST", api + "/api/v1/nodes/" + NODE + "/drain", TOKEN).statusCode());
        assertEquals("true", client.nodes().withName(NODE).get().getMetadata().getAnnotations()
                .get(NodeDecision.ANNOTATION_DRAIN_BATCH));
        Await.until(Duration.ofSeconds(20), () -> {
            long[] batch = KubeFixtures.batchAllocatable(client, NODE);
            return batch != null && batch[0] == 0 && app.broker().ledger().get(NODE).map(l -> l.drained()).orElse(false);
        });

        assertEquals(200, send("DELETE", api + "/api/v1/nodes/" + NODE + "/drain", TOKEN).statusCode());
        Await.until(Duration.ofSeconds(20), () -> {
            long[] batch = KubeFixtures.batchAllocatable(client, NODE);
            return batch != null && batch[0] == 2800 && app.broker().ledger().get(NODE).map(l -> !l.drained()).orElse(false);
        });
        HttpResponse<String> task = send("POST", admin + "/tasks/resync", TOKEN);
        assertEquals(200, task.statusCode(), task.body());
        awaitSettled(client);
    }

    @Test
    void aUsersMistakeIsA4xxWithAJsonBodyAndATaskFailureIsNever2xx() throws Exception {
        HttpResponse<String> badName = send("POST", api + "/api/v1/nodes/Bad_Name!/drain", TOKEN);
        assertEquals(400, badName.statusCode(), badName.body());
        assertEquals(400, JSON.readTree(badName.body()).path("code").asInt(), badName.body());
        assertTrue(JSON.readTree(badName.body()).path("message").asText().contains("is not a Node name"), badName.body());

        HttpResponse<String> unknown = send("POST", admin + "/tasks/drain-batch?node=no-such-node", TOKEN);
        assertEquals(404, unknown.statusCode(), unknown.body());
        assertEquals("no Node no-such-node", JSON.readTree(unknown.body()).path("message").asText());
        assertEquals(400, send("POST", admin + "/tasks/drain-batch", TOKEN).statusCode());
        assertEquals(400, send("POST", admin + "/tasks/drain-batch?node=UPPER", TOKEN).statusCode());
        assertEquals(401, send("POST", admin + "/tasks/drain-batch?node=" + NODE, null).statusCode());
        HttpResponse<String> maybe = send("POST", admin + "/tasks/drain-batch?node=" + NODE + "&undo=maybe", TOKEN);
        assertEquals(400, maybe.statusCode(), "an undo that is neither true nor false drains nothing: " + maybe.body());
        assertTrue(maybe.body().contains("undo must be true or false"), maybe.body());
    }

    @Test
    void undoMeansUndoHoweverItIsSpelled(KubernetesClient client) throws Exception {
        for (String undo : List.of("1", "yes", "TRUE", "true")) {
            assertEquals(200, send("POST", admin + "/tasks/drain-batch?node=" + NODE, TOKEN).statusCode());
            HttpResponse<String> r = send("POST", admin + "/tasks/drain-batch?node=" + NODE + "&undo=" + undo, TOKEN);
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(NODE, JSON.readTree(r.body()).path("undrained").path(0).asText(), undo + ": " + r.body());
            assertEquals("false", client.nodes().withName(NODE).get().getMetadata().getAnnotations()
                    .getOrDefault(NodeDecision.ANNOTATION_DRAIN_BATCH, "false"), "undone with undo=" + undo);
        }
        awaitSettled(client);
    }

    /**
     * Until the broker has seen the node as it is now and passed over it since: a later test must not see the ledger of
     * a pass that read one of the quick drain/undrain flips above still in flight.
     */
    private static void awaitSettled(KubernetesClient client) throws Exception {
        long written = Long.parseLong(client.nodes().withName(NODE).get().getMetadata().getResourceVersion());
        Await.until(Duration.ofSeconds(20), () -> app.broker().view().nodes().stream()
                .anyMatch(n -> n.getMetadata().getName().equals(NODE) && Long.parseLong(n.getMetadata().getResourceVersion()) >= written));
        long passes = app.broker().reconciler().stats().passes.get();
        Await.until(Duration.ofSeconds(20), () -> app.broker().reconciler().stats().passes.get() >= passes + 2
                && app.broker().ledger().get(NODE).map(l -> !l.drained()).orElse(false));
    }

    /** Probes and metrics are open on the admin port; thread dumps, the profiler and the tasks need the token. */
    @Test
    void theAdminPortOpensOnlyItsProbesAndMetricsWithoutTheToken() throws Exception {
        for (String open : List.of("/livez", "/readyz", "/healthcheck", "/ping", "/prometheus", "/metrics")) {
            assertEquals(200, send("GET", admin + open, null).statusCode(), open);
        }
        for (String guarded : List.of("/threads", "/pprof", "/tasks/resync", "/tasks/drain-batch?node=" + NODE, "/")) {
            HttpResponse<String> r = send("GET", admin + guarded, null);
            assertEquals(401, r.statusCode(), guarded + ": " + r.body());
        }
        assertEquals(200, send("GET", admin + "/threads", TOKEN).statusCode(), "with the token");
    }

    @Test
    void theConsoleIsServedWithAPolicyThatForbidsForeignScriptAndFraming() throws Exception {
        for (String path : List.of("/", "/console/console.js", "/console/console.css")) {
            HttpResponse<String> r = send("GET", api + path, null);
            String csp = r.headers().firstValue("Content-Security-Policy").orElse("");
            assertTrue(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'") && !csp.contains("unsafe-inline"),
                    path + ": " + csp);
            assertEquals("DENY", r.headers().firstValue("X-Frame-Options").orElse(""), path);
            assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""), path);
        }
    }

    @Test
    void probesAnswerFromKeptStateWithinASecond() throws Exception {
        long started = System.nanoTime();
        HttpResponse<String> live = send("GET", admin + "/livez", null);
        HttpResponse<String> ready = send("GET", admin + "/readyz", null);
        assertTrue((System.nanoTime() - started) / 1_000_000 < 1000);
        assertEquals(200, live.statusCode(), live.body());
        assertEquals("ok", JSON.readTree(live.body()).path("status").asText());
        assertEquals(200, ready.statusCode(), ready.body());
        assertEquals(0, JSON.readTree(ready.body()).path("failing").size(), ready.body());
    }

    /** The node list pages and filters on the server (a console at 1,000s of nodes); its times are on the broker's clock. */
    @Test
    void theNodeListIsFilteredAndPagedAndSaysTheBrokersNow() throws Exception {
        Await.until(Duration.ofSeconds(20), () -> app.broker().ledger().get(NODE).isPresent());
        // Other test classes share the API server: count this test's node by name.
        JsonNode all = get(api + "/api/v1/nodes?filter=" + NODE);
        assertEquals(1, all.get("total").asInt());
        Instant now = Instant.parse(all.get("now").asText());
        assertTrue(Math.abs(Duration.between(now, Instant.now()).toSeconds()) < 5, "the wall clock here: " + now);
        JsonNode computedAt = all.get("items").get(0).get("computedAt");
        assertTrue(computedAt != null && !computedAt.isNull(), all.toString());
        assertEquals(1, get(api + "/api/v1/nodes?filter=app-node&state=ok&limit=10").get("items").size());
        JsonNode none = get(api + "/api/v1/nodes?filter=no-such");
        assertEquals(0, none.get("total").asInt());
        assertEquals(0, none.get("items").size());
        JsonNode past = get(api + "/api/v1/nodes?filter=" + NODE + "&offset=5&limit=50");
        assertEquals(1, past.get("total").asInt());
        assertEquals(0, past.get("items").size());
        assertEquals(0, get(api + "/api/v1/nodes?filter=" + NODE + "&state=drained").get("total").asInt());
        assertEquals(400, send("GET", api + "/api/v1/nodes?state=sleepy", null).statusCode());
        assertEquals(400, send("GET", api + "/api/v1/nodes?offset=-1", null).statusCode());
    }

    /**
     * Who uses Batch: Spark's executor pods (batch requests) as one workload, an online pod left out, and the YARN
     * applications the scheduler plugin reports in ZooKeeper (written here as the plugin writes them).
     */
    @Test
    void workloadsGroupBatchPodsAndListTheYarnApplications(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        for (int i = 1; i <= 2; i++) {
            client.pods().inNamespace(NS).resource(pod("wordcount-exec-" + i, Map.of("spark-app-selector", "spark-0042",
                    "spark-app-name", "wordcount", "spark-role", "executor"), "kubernetes.io/batch-cpu", "500")).create();
        }
        client.pods().inNamespace(NS).resource(pod("online-web", Map.of("app", "web"), "cpu", "1")).create();
        YarnApplications reported = new YarnApplications(List.of(new YarnApplications.Application("application_1_0002",
                "wordcount", "SPARK", "default", 3, 3, 3072, 1, 1024, 1)), 0, System.currentTimeMillis());
        try (org.apache.curator.framework.CuratorFramework curator = zk.newClient()) {
            curator.create().orSetData().creatingParentsIfNeeded().forPath(
                    YarnContract.applicationsPath("/app", YarnContract.DEFAULT_CLUSTER_ID), YarnContractCodec.write(reported));
        }
        Await.until(Duration.ofSeconds(20), () -> {
            try {
                JsonNode w = get(api + "/api/v1/workloads");
                return w.get("kubernetes").size() == 1 && w.get("yarn").get(0).get("reported").asBoolean();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        JsonNode w = get(api + "/api/v1/workloads");
        JsonNode spark = w.get("kubernetes").get(0);
        assertEquals("SparkApplication", spark.get("kind").asText(), w.toString());
        assertEquals("wordcount (spark-0042)", spark.get("name").asText());
        assertEquals(NS, spark.get("namespace").asText());
        assertEquals(2, spark.get("running").asInt() + spark.get("pending").asInt(), w.toString());
        assertEquals(1000, spark.get("batchCpuMilli").asLong(), "both executors' batch-cpu");
        JsonNode yarn = w.get("yarn").get(0);
        assertEquals(YarnContract.DEFAULT_CLUSTER_ID, yarn.get("clusterId").asText());
        assertEquals("application_1_0002", yarn.get("applications").get(0).get("applicationId").asText());
        assertEquals("SPARK", yarn.get("applications").get(0).get("type").asText());
        assertEquals(1, yarn.get("applications").get(0).get("preemptedContainers").asInt());
        JsonNode one = get(api + "/api/v1/workloads?limit=1");
        assertEquals(1, one.get("kubernetes").size());
        assertEquals(0, one.get("kubernetesOmitted").asInt(), one.toString());
        assertEquals(400, send("GET", api + "/api/v1/workloads?limit=0", null).statusCode(), "a limit of 0 is a mistake");
        // the other tests see the node without them
        for (String name : List.of("wordcount-exec-1", "wordcount-exec-2", "online-web")) {
            client.pods().inNamespace(NS).withName(name).withGracePeriod(0).delete();
        }
    }

    private static io.fabric8.kubernetes.api.model.Pod pod(String name, Map<String, String> labels, String resource, String quantity) {
        return new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withNodeName(NODE).addNewContainer().withName("main").withImage("registry.invalid/none")
                .withNewResources().addToRequests(resource, new io.fabric8.kubernetes.api.model.Quantity(quantity))
                .addToLimits(resource, new io.fabric8.kubernetes.api.model.Quantity(quantity)).endResources()
                .endContainer().endSpec().build();
    }

    /** The console: its page and assets from the jar, the health it shows, and the page working in a real browser. */
    @Test
    void theConsoleShowsTheClusterInARealBrowser() throws Exception {
        HttpResponse<String> page = send("GET", api + "/", null);
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertTrue(page.body().contains("console/console.js"), page.body());
        assertEquals(200, send("GET", api + "/console/console.js", null).statusCode());
        assertEquals(404, send("GET", api + "/console/broker.yml", null).statusCode(), "only the console's own files");
        JsonNode health = get(api + "/api/v1/health");
        assertTrue(health.size() > 0 && health.fields().next().getValue().has("healthy"), health.toString());

        java.util.Optional<Path> chromium = java.util.stream.Stream.of(System.getenv("PATH").split(":"))
                .map(d -> Path.of(d, "chromium")).filter(java.nio.file.Files::isExecutable).findFirst();
        org.junit.jupiter.api.Assumptions.assumeTrue(chromium.isPresent(), "no chromium on PATH (dev/test-all.sh installs it)");
        Await.until(Duration.ofSeconds(20), () -> app.broker().ledger().get(NODE).isPresent());
        Path profile = java.nio.file.Files.createTempDirectory("console-browser");
        try {
            Process browser = new ProcessBuilder(chromium.get().toString(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--virtual-time-budget=15000", "--dump-dom", api + "/")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String dom = new String(browser.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(browser.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the browser finished");
            assertTrue(dom.contains("data-node=\"" + NODE + "\""), "a row for the node: " + dom);
            assertTrue(dom.contains("leader: "), dom);
            assertTrue(dom.contains("class=\"bar\""), "the node's stacked bar: " + dom);
            assertTrue(dom.contains("Kubernetes grant") && dom.contains("✔ "), "the health list: " + dom);
            assertTrue(dom.contains("nodes 1–"), "the pager: " + dom);
            assertTrue(dom.contains("Batch workloads") && dom.contains("<td>YARN " + YarnContract.DEFAULT_CLUSTER_ID + "</td>"),
                    "the Batch workloads table, with a row for the YARN cluster: " + dom);
            assertTrue(dom.contains("<h2>Quotas</h2>") && (dom.contains("<td>no quotas</td>") || dom.contains("<td>no ElasticQuota CRD in this"
                    + " cluster</td>") || dom.contains("<td>app-org</td>")), "the Quotas table, read from /api/v1/quotas: " + dom);
        } finally {
            try (var walk = java.nio.file.Files.walk(profile)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
