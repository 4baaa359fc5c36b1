package io.colocation.scheduler.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code colocation k8s-scheduler explain} against Koordinator's own LoadAwareScheduling figures (load_aware_test.go
 * TestScore: a 96-CPU / 512 Gi node) and the worked example of docs/koordinator-compatibility.md §9.4, through the JSON.
 */
class SchedulerExplainCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String NOW = "2026-11-23T08:00:00Z";

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
        JsonNode json() throws Exception {
            return JSON.readTree(out);
        }

        JsonNode node(String name) throws Exception {
            for (JsonNode n : json().get("nodes")) {
                if (n.get("name").asText().equals(name)) {
                    return n;
                }
            }
            throw new AssertionError("no node " + name + " in " + out);
        }
    }

    private Run run(String yaml, String config, String... extra) throws Exception {
        Path file = dir.resolve("input.yaml");
        Files.writeString(file, yaml);
        List<String> args = new ArrayList<>(List.of("-f", file.toString(), "-o", "json", "--now", NOW));
        if (config != null) {
            Path c = dir.resolve("config.yaml");
            Files.writeString(c, config);
            args.addAll(List.of("--config", c.toString()));
        }
        args.addAll(List.of(extra));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = SchedulerExplainCommand.run(args.toArray(String[]::new), new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Clock.systemUTC());
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static String node(String name, String cpu, String memory, String extra) {
        return """
                apiVersion: v1
                kind: Node
                metadata: {name: %s}
                status:
                  allocatable: {cpu: "%s", memory: %s, pods: "110"%s}
                ---
                """.formatted(name, cpu, memory, extra);
    }

    static String pod(String name, String nodeName, int priority, String resources, String scheduledAt) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: default}
                spec:
                  %s
                  priority: %d
                  containers:
                  - name: main
                    resources: {requests: {%s}, limits: {%s}}
                status:
                  %s
                ---
                """.formatted(name, nodeName == null ? "schedulerName: koord-scheduler" : "nodeName: " + nodeName, priority,
                resources, resources, scheduledAt == null ? "phase: Pending"
                        : "phase: Running\n  conditions: [{type: PodScheduled, status: \"True\", lastTransitionTime: \"" + scheduledAt + "\"}]");
    }

    static String metric(String node, String updateTime, String cpu, String memory, String extra) {
        return """
                apiVersion: slo.koordinator.sh/v1alpha1
                kind: NodeMetric
                metadata: {name: %s}
                spec: {metricCollectPolicy: {reportIntervalSeconds: 60}}
                status:
                  updateTime: "%s"
                  nodeMetric:
                    nodeUsage: {resources: {cpu: "%s", memory: %s}}
                %s
                ---
                """.formatted(node, updateTime, cpu, memory, extra);
    }

    private static final String INCOMING = pod("test-pod-1", null, 0, "cpu: \"16\", memory: 32Gi", null);
    private static final String NODE = node("test-node-1", "96", "512Gi", "");

    private long loadAwareScore(Run r) throws Exception {
        assertEquals(0, r.exit(), r.err());
        return r.node("test-node-1").at("/plugins/LoadAwareScheduling/score").asLong();
    }

    /** TestScore "score empty node": only the incoming estimate, 13600m and 22.4 Gi of 96 / 512 Gi: 90. */
    @Test
    void emptyNode() throws Exception {
        Run r = run(NODE + INCOMING + metric("test-node-1", NOW, "0", "0", ""), null);
        assertEquals(90, loadAwareScore(r));
        assertEquals(90, r.node("test-node-1").get("score").asLong(), "the only score plugin, weight 1");
        assertEquals("test-node-1", r.json().get("selected").asText());
    }

    /** "score load node": 32 CPU / 10 Gi used: 72. */
    @Test
    void loadedNode() throws Exception {
        assertEquals(72, loadAwareScore(run(NODE + INCOMING + metric("test-node-1", NOW, "32", "10Gi", ""), null)));
    }

    /** "score node missing NodeMetrics": 0. */
    @Test
    void noNodeMetric() throws Exception {
        assertEquals(0, loadAwareScore(run(NODE + INCOMING, null)));
    }

    /** "score node with expired nodeMetric" (180 s old): 0; the filter says why. */
    @Test
    void expiredNodeMetric() throws Exception {
        Run r = run(NODE + INCOMING + metric("test-node-1", "2026-11-23T07:57:00Z", "0", "0", ""), null);
        assertEquals(0, loadAwareScore(r));
        assertEquals("Unschedulable", r.node("test-node-1").get("filter").asText());
        assertEquals(List.of("node(s) nodeMetric expired"), texts(r.node("test-node-1").get("reasons")));
        assertTrue(r.json().get("selected").isNull());
    }

    /** "score load node with p95": the aggregated p95 (32 / 10 Gi) is the base: 72. */
    @Test
    void aggregatedP95() throws Exception {
        String agg = "    aggregatedNodeUsages:\n    - duration: 5m0s\n      usage:\n"
                + "        p95: {resources: {cpu: \"32\", memory: 10Gi}}\n        p99: {resources: {cpu: \"50\", memory: 70Gi}}";
        String config = config("aggregated: {scoreAggregationType: p95, scoreAggregatedDuration: 5m}");
        assertEquals(72, loadAwareScore(run(NODE + INCOMING + metric("test-node-1", NOW, "0", "0", agg), config)));
    }

    /** "p95 but not reported, with an assigned pod": every assigned pod's estimate + the incoming one: 81. */
    @Test
    void aggregatedAbsentCountsEstimates() throws Exception {
        String config = config("aggregated: {scoreAggregationType: p95, scoreAggregatedDuration: 5m}");
        String assigned = pod("assigned-pod-1", "test-node-1", 0, "cpu: \"16\", memory: 32Gi", "2026-11-23T07:50:00Z");
        String pods = "  podsMetric:\n  - {namespace: default, name: assigned-pod-1, podUsage: {resources: {cpu: \"1\", memory: 1Gi}}}";
        assertEquals(81, loadAwareScore(run(NODE + INCOMING + assigned + metric("test-node-1", NOW, "0", "0", pods), config)));
    }

    /** "just assigned pod": placed after the metric, not reported: its whole estimate is added: 63. */
    @Test
    void justAssignedPod() throws Exception {
        String assigned = pod("assigned-pod-1", "test-node-1", 0, "cpu: \"16\", memory: 32Gi", NOW);
        assertEquals(63, loadAwareScore(run(NODE + INCOMING + assigned + metric("test-node-1", "2026-11-23T07:59:50Z", "32", "10Gi", ""),
                null)));
    }

    /**
     * docs/koordinator-compatibility.md §9.4's worked example: a prod pod placed 20 s before the metric (reported 1000m / 2 Gi of
     * its 3400m / 5.6 Gi estimate) and an incoming batch pod: cpu 15800m = 49 %, memory 41 %, score (50 + 58) / 2 = 54.
     */
    @Test
    void worksTheCompatExample() throws Exception {
        String node = node("n1", "32", "64Gi", ", kubernetes.io/batch-cpu: \"20000\", kubernetes.io/batch-memory: 20Gi");
        String prod = pod("web", "n1", 9500, "cpu: \"4\", memory: 8Gi", "2026-11-23T07:59:40Z");
        String batch = """
                apiVersion: v1
                kind: Pod
                metadata: {name: spark-exec, namespace: default}
                spec:
                  schedulerName: koord-scheduler
                  priority: 5500
                  containers:
                  - name: main
                    resources:
                      requests: {kubernetes.io/batch-cpu: "2000", kubernetes.io/batch-memory: 4Gi}
                      limits: {kubernetes.io/batch-cpu: "4000", kubernetes.io/batch-memory: 4Gi}
                ---
                """;
        String pods = "  podsMetric:\n  - {namespace: default, name: web, priority: koord-prod, podUsage: {resources: {cpu: \"1\", memory: 2Gi}}}";
        Run r = run(node + prod + batch + metric("n1", NOW, "10", "20Gi", pods), null, "--now", "2026-11-23T08:00:30Z");
        assertEquals(0, r.exit(), r.err());
        assertEquals("Success", r.node("n1").at("/plugins/LoadAwareScheduling/filter").asText());
        assertEquals(54, r.node("n1").at("/plugins/LoadAwareScheduling/score").asLong());
        assertEquals("default/spark-exec", r.json().get("pod").asText());
    }

    /** The filter rounds: 65.49 % passes a 65 % threshold, 65.5 % does not; every plugin still reports on every node. */
    @Test
    void thresholdRoundsLikeKoordinator() throws Exception {
        // 100 CPU; incoming estimate 250m (no requests): 65240m + 250m = 65.49 % and 65250m + 250m = 65.5 %
        String input = node("pass", "100", "512Gi", "") + node("fail", "100", "512Gi", "")
                + pod("p", null, 0, "", null)
                + metric("pass", NOW, "65240m", "0", "") + metric("fail", NOW, "65250m", "0", "");
        Run r = run(input, null);
        assertEquals(0, r.exit(), r.err());
        assertEquals("Success", r.node("pass").get("filter").asText());
        assertEquals("Unschedulable", r.node("fail").get("filter").asText());
        assertEquals(List.of("node(s) cpu usage exceed threshold"), texts(r.node("fail").get("reasons")));
        assertFalse(r.node("fail").at("/plugins/LoadAwareScheduling/score").isNull(), "scored even where filtered out");
        assertTrue(r.node("fail").get("score").isNull());
        assertEquals("pass", r.json().get("selected").asText());
    }

    /** Batch grants are allocatable: a node without enough batch-cpu is filtered by NodeResourcesFit. */
    @Test
    void batchResourcesMustFit() throws Exception {
        String input = node("small", "32", "64Gi", ", kubernetes.io/batch-cpu: \"1000\"")
                + node("big", "32", "64Gi", ", kubernetes.io/batch-cpu: \"8000\"")
                + pod("b", null, 5500, "kubernetes.io/batch-cpu: \"2000\"", null)
                + metric("small", NOW, "1", "1Gi", "") + metric("big", NOW, "10", "1Gi", "");
        Run r = run(input, null);
        assertEquals(List.of("Insufficient kubernetes.io/batch-cpu"), texts(r.node("small").get("reasons")));
        assertEquals("Unschedulable", r.node("small").at("/plugins/NodeResourcesFit/filter").asText());
        assertEquals("Success", r.node("small").at("/plugins/LoadAwareScheduling/filter").asText());
        assertTrue(r.node("small").at("/plugins/NodeResourcesFit/score").isNull(), "no score extension");
        assertEquals("big", r.json().get("selected").asText());
    }

    /** A KubeSchedulerConfiguration: LoadAware args (thresholds, weights) and a profile with only LoadAware. */
    @Test
    void configurationSetsArgsAndPlugins() throws Exception {
        String config = """
                apiVersion: kubescheduler.config.k8s.io/v1beta3
                kind: KubeSchedulerConfiguration
                profiles:
                - schedulerName: koord-scheduler
                  plugins:
                    filter: {disabled: [{name: "*"}], enabled: [{name: LoadAwareScheduling}]}
                    score: {enabled: [{name: LoadAwareScheduling, weight: 3}, {name: NodeNUMAResource, weight: 1}]}
                  pluginConfig:
                  - name: LoadAwareScheduling
                    args:
                      usageThresholds: {cpu: 30}
                      resourceWeights: {cpu: 1}
                """;
        Run r = run(NODE + INCOMING + metric("test-node-1", NOW, "16", "10Gi", ""), config);
        assertEquals(0, r.exit(), r.err());
        JsonNode n = r.node("test-node-1");
        assertFalse(n.get("plugins").has("NodeResourcesFit"));
        // cpu (16000 + 13600) / 96000 = 31 % > 30 %
        assertEquals(List.of("node(s) cpu usage exceed threshold"), texts(n.get("reasons")));
        assertEquals(69, n.at("/plugins/LoadAwareScheduling/score").asLong(), "(96000 − 29600) × 100 / 96000, cpu weight only");
        assertTrue(r.json().get("notes").toString().contains("NodeNUMAResource"));
    }

    /** percentageOfNodesToScore: 0-100, top level or per profile; explain scores every node and says what a search would. */
    @Test
    void percentageOfNodesToScore() throws Exception {
        StringBuilder many = new StringBuilder(INCOMING);
        for (int i = 0; i < 150; i++) {
            many.append(node(String.format("node-%03d", i), "96", "512Gi", ""));
        }
        String config = """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                percentageOfNodesToScore: %s
                profiles:
                - schedulerName: koord-scheduler
                """;
        Run r = run(many.toString(), config.formatted("10"));
        assertEquals(0, r.exit(), r.err());
        assertEquals(150, r.json().get("nodes").size(), "explain shows every node");
        assertTrue(r.json().get("notes").toString().contains("scores 100 feasible nodes of these 150"), r.out());

        Run bad = run(many.toString(), config.formatted("150"));
        assertEquals(1, bad.exit());
        assertTrue(bad.err().contains("percentageOfNodesToScore must be an integer from 0 to 100, found 150"), bad.err());
    }

    /** The probe's configurations: a weight beyond int32 printed a wrapped score with exit 0; profiles as a string were taken as none. */
    @Test
    void aWeightBeyondInt32AndProfilesThatAreNoListAreRefusedNamed() throws Exception {
        String wide = """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - schedulerName: koord-scheduler
                  plugins:
                    score: {enabled: [{name: LoadAwareScheduling, weight: 9223372036854775807}]}
                """;
        Run r = run(INCOMING + node("test-node-1", "96", "512Gi", ""), wide);
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.err().contains("plugins.score.enabled[LoadAwareScheduling].weight: must be an integer from 0 to 2147483647"), r.err());
        Run text = run(INCOMING + node("test-node-1", "96", "512Gi", ""), """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles: koord-scheduler
                """);
        assertEquals(1, text.exit(), text.out());
        assertTrue(text.err().contains("profiles must be a list of profiles, found string \"koord-scheduler\""), text.err());
    }

    @Test
    void theNodeAnnotationOverridesThresholds() throws Exception {
        String annotated = """
                apiVersion: v1
                kind: Node
                metadata:
                  name: test-node-1
                  annotations: {scheduling.koordinator.sh/usage-thresholds: '{"usageThresholds":{"cpu":20}}'}
                status: {allocatable: {cpu: "96", memory: 512Gi}}
                ---
                """;
        Run r = run(annotated + INCOMING + metric("test-node-1", NOW, "8", "10Gi", ""), null);
        // (8000 + 13600) / 96000 = 22.5 % → 23 > 20
        assertEquals(List.of("node(s) cpu usage exceed threshold"), texts(r.node("test-node-1").get("reasons")));
    }

    @Test
    void affinityAndTaints() throws Exception {
        String input = """
                apiVersion: v1
                kind: Node
                metadata: {name: tainted, labels: {pool: batch}}
                spec: {taints: [{key: dedicated, value: online, effect: NoSchedule}]}
                status: {allocatable: {cpu: "8", memory: 16Gi}}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: other-pool, labels: {pool: online}}
                status: {allocatable: {cpu: "8", memory: 16Gi}}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: good, labels: {pool: batch}}
                status: {allocatable: {cpu: "8", memory: 16Gi}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default}
                spec:
                  nodeSelector: {pool: batch}
                  containers: [{name: c}]
                """;
        Run r = run(input, null);
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("node(s) had untolerated taint {dedicated: online}"), texts(r.node("tainted").get("reasons")));
        assertEquals(List.of("node(s) didn't match Pod's node affinity/selector"), texts(r.node("other-pool").get("reasons")));
        assertEquals("good", r.json().get("selected").asText());
    }

    @Test
    void inputErrorsNameTheirPlace() throws Exception {
        Run bad = run(NODE + INCOMING + metric("test-node-1", NOW, "lots", "0", ""), null);
        assertEquals(1, bad.exit());
        assertTrue(bad.err().contains("NodeMetric test-node-1: status.nodeMetric.nodeUsage.resources.cpu"), bad.err());
        Run badArgs = run(NODE + INCOMING, config("usageThresholds: {cpu: 130}"));
        assertEquals(1, badArgs.exit());
        assertTrue(badArgs.err().contains("usageThresholds.cpu: must be an integer from 0 to 100"), badArgs.err());
        Run twoPending = run(NODE + INCOMING + pod("other", null, 0, "", null), null);
        assertEquals(1, twoPending.exit());
        assertTrue(twoPending.err().contains("--pod"), twoPending.err());
        assertEquals(2, run(NODE, null, "--bogus").exit());
    }

    private static String config(String args) {
        return """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - schedulerName: koord-scheduler
                  pluginConfig:
                  - name: LoadAwareScheduling
                    args: {%s}
                """.formatted(args);
    }

    private static List<String> texts(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** A rich input with one field set to null, each in turn: a decision, or an error naming the file; never an exception. */
    @org.junit.jupiter.api.TestFactory
    java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> aNullFieldAnywhereIsADecisionOrANamedError() throws Exception {
        String node = node("n1", "32", "64Gi", ", kubernetes.io/batch-cpu: \"20000\", kubernetes.io/batch-memory: 20Gi");
        String prod = pod("web", "n1", 9500, "cpu: \"4\", memory: 8Gi", "2026-11-23T07:59:40Z");
        String batch = """
                apiVersion: v1
                kind: Pod
                metadata: {name: spark-exec, namespace: default, labels: {app: spark}}
                spec:
                  schedulerName: koord-scheduler
                  priority: 5500
                  tolerations: [{key: dedicated, operator: Equal, value: batch, effect: NoSchedule}]
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]
                  containers:
                  - name: main
                    resources:
                      requests: {kubernetes.io/batch-cpu: "2000", kubernetes.io/batch-memory: 4Gi}
                      limits: {kubernetes.io/batch-cpu: "4000", kubernetes.io/batch-memory: 4Gi}
                ---
                """;
        String pods = "  podsMetric:\n  - {namespace: default, name: web, priority: koord-prod, podUsage: {resources: {cpu: \"1\", memory: 2Gi}}}";
        String input = node.replace("metadata: {name: n1}", "metadata: {name: n1, labels: {zone: a}}\n"
                + "spec: {taints: [{key: dedicated, value: batch, effect: NoSchedule}]}")
                + prod + batch + metric("n1", NOW, "10", "20Gi", pods);
        assertEquals(0, run(input, null).exit(), "the unchanged input is valid");
        List<JsonNode> docs = new ArrayList<>();
        ObjectMapper yaml = new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        try (var it = yaml.readerFor(JsonNode.class).readValues(input)) {
            while (it.hasNext()) {
                JsonNode d = (JsonNode) it.next();
                if (d != null && d.isObject()) {
                    docs.add(d);
                }
            }
        }
        List<org.junit.jupiter.api.DynamicTest> cases = new ArrayList<>();
        for (io.colocation.testsupport.cli.NullFieldVariants.Variant v : io.colocation.testsupport.cli.NullFieldVariants.of(docs)) {
            cases.add(org.junit.jupiter.api.DynamicTest.dynamicTest(v.field() + " = null", () -> {
                Run r = run(JSON.writeValueAsString(v.documents()), null);
                assertTrue(r.exit() == 0 || r.exit() == 1, v.field() + " = null: " + r.err());
                if (r.exit() == 1) {
                    // a named error: the file, or the objects the choice is between; never an unforeseen shape
                    assertTrue((r.err().contains("input.yaml") || r.err().contains("pending Pods")) && !r.err().contains("Exception")
                            && !r.err().contains("java.") && !r.err().contains("cannot use the input"), v.field() + " = null: " + r.err());
                }
            }));
        }
        return cases.stream();
    }
}
