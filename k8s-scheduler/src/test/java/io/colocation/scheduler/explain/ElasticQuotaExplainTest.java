package io.colocation.scheduler.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code explain} with ElasticQuota enabled: the proposal's tree of three quotas on 60 cores (A lends, B and C share
 * the rest 1:2), the pod's verdict at PreFilter with Koordinator's message, and the built-ins.
 */
class ElasticQuotaExplainTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIG = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: koord-scheduler
              plugins:
                preFilter: {enabled: [{name: ElasticQuota}]}
                reserve: {enabled: [{name: ElasticQuota}]}
            """;

    @TempDir
    Path dir;

    private static String quota(String name, String min, String weight) {
        return """
                apiVersion: scheduling.sigs.k8s.io/v1alpha1
                kind: ElasticQuota
                metadata:
                  name: %s
                  namespace: %s
                  annotations: {quota.scheduling.koordinator.sh/shared-weight: '{"cpu":"%s"}'}
                spec: {min: {cpu: "%s"}, max: {cpu: "60"}}
                ---
                """.formatted(name, name, weight, min);
    }

    private static String pod(String name, String namespace, String cpu, String nodeName) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: %s}
                spec:
                  %s
                  containers: [{name: main, resources: {requests: {cpu: "%s", memory: 1Gi}}}]
                status: {phase: %s}
                ---
                """.formatted(name, namespace, nodeName == null ? "schedulerName: koord-scheduler" : "nodeName: " + nodeName, cpu,
                nodeName == null ? "Pending" : "Running");
    }

    private JsonNode explain(String input, String... extra) throws Exception {
        return explainPod("b/p", input, extra);
    }

    private JsonNode explainPod(String pod, String input, String... extra) throws Exception {
        Path file = dir.resolve("in.yaml");
        Path config = dir.resolve("config.yaml");
        Files.writeString(file, SchedulerExplainCommandTest.node("n1", "60", "600Gi", "") + input);
        Files.writeString(config, CONFIG);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] base = {"-f", file.toString(), "--config", config.toString(), "--pod", pod, "--now", SchedulerExplainCommandTest.NOW};
        String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(base), java.util.Arrays.stream(extra))
                .toArray(String[]::new);
        int exit = SchedulerExplainCommand.run(args, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Clock.systemUTC());
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        return extra.length == 0 ? JSON.getNodeFactory().textNode(text) : JSON.readTree(text);
    }

    private static Map<String, JsonNode> byName(JsonNode json) {
        Map<String, JsonNode> out = new HashMap<>();
        json.get("quotas").forEach(q -> out.put(q.get("name").asText(), q));
        return out;
    }

    private static final String TREE = quota("a", "10", "1") + quota("b", "10", "1") + quota("c", "20", "2");

    @Test
    void theLenderGetsWhatItAsksAndTheBorrowersShareTheRestByWeight() throws Exception {
        JsonNode json = explain(TREE + pod("a-1", "a", "4", "n1") + pod("p", "b", "1", null) + pod("b-1", "b", "39", null)
                + pod("c-1", "c", "25", null) + pod("c-2", "c", "25", null), "-o", "json");
        Map<String, JsonNode> q = byName(json);
        assertEquals("4", q.get("a").at("/runtime/cpu").asText(), json.toPrettyString());
        // in milli-cores, as Koordinator computes: 26 cores shared 1:2 are 8666.67 and 17333.33, the leftover milli-core
        // going to the larger remainder
        assertEquals("18667m", q.get("b").at("/runtime/cpu").asText());
        assertEquals("37333m", q.get("c").at("/runtime/cpu").asText());
        assertEquals("40", q.get("b").at("/request/cpu").asText(), "pending pods count in their quota's request");
        assertEquals("4", q.get("a").at("/used/cpu").asText(), "bound pods count in its used");
        assertEquals(0, q.get("b").get("used").size(), "pending pods are not used");
        assertEquals("koordinator-root-quota", q.get("a").get("parent").asText());
        assertEquals("1", q.get("a").at("/sharedWeight/cpu").asText());
        assertEquals("10", q.get("a").at("/autoScaleMin/cpu").asText());
        assertEquals("60", q.get("koordinator-root-quota").at("/runtime/cpu").asText());
        assertTrue(q.containsKey("koordinator-default-quota") && q.containsKey("koordinator-system-quota"), json.toPrettyString());
        assertEquals("b", json.at("/quota/name").asText());
        assertEquals("Success", json.at("/quota/status").asText());
        assertEquals("Success", json.at("/preFilter/ElasticQuota/status").asText());
        assertEquals("n1", json.get("selected").asText());
    }

    @Test
    void aPodBeyondItsQuotasRuntimeIsHeldBackWithKoordinatorsMessage() throws Exception {
        JsonNode json = explain(TREE + pod("a-1", "a", "4", "n1") + pod("b-1", "b", "19", "n1") + pod("p", "b", "1", null)
                + pod("b-2", "b", "20", null) + pod("c-1", "c", "50", null), "-o", "json");
        String why = "Insufficient quotas, quotaName: b, runtime: cpu:18667m, used: cpu:19, pod's request: cpu:1,memory:1Gi,"
                + " exceedDimensions: [cpu]";
        assertEquals("Unschedulable", json.at("/preFilter/ElasticQuota/status").asText(), json.toPrettyString());
        assertEquals(why, json.at("/preFilter/ElasticQuota/reasons/0").asText());
        assertEquals(why, json.at("/quota/reasons/0").asText());
        assertEquals("null", json.get("selected").asText());
    }

    @Test
    void aPodOfNoQuotaIsInTheDefaultQuotaAndTheTextShowsTheTree() throws Exception {
        String text = explainPod("b-other/p", TREE + pod("p", "b-other", "1", null)).asText();
        assertTrue(text.contains("Pod's quota koordinator-default-quota: Success"), text);
        assertTrue(text.contains("  koordinator-root-quota  total {cpu=60, memory=600Gi}"), text);
        assertTrue(text.contains("    a  {cpu=10} / {cpu=0} / {}"), text);
    }

    @Test
    void aPodNamingAQuotaThatDoesNotExistFallsBackToTheDefaultQuota() throws Exception {
        String input = TREE + pod("p", "b", "1", null).replace("namespace: b}",
                "namespace: b, labels: {quota.scheduling.koordinator.sh/name: gone}}");
        JsonNode json = explain(input, "-o", "json");
        assertEquals("koordinator-default-quota", json.at("/quota/name").asText(), json.toPrettyString());
    }

    @Test
    void aQuotaThatCannotBeReadOrHasNoParentIsLeftOutAndNamed() throws Exception {
        String bad = quota("x", "-1", "1")
                + quota("orphan", "1", "1").replace("annotations:", "labels: {quota.scheduling.koordinator.sh/parent: gone}\n  annotations:")
                + quota("b", "10", "1").replace("'{\"cpu\":\"1\"}'", "'not json'");
        JsonNode json = explain(bad + pod("p", "b", "1", null), "-o", "json");
        String notes = json.get("notes").toString();
        assertTrue(notes.contains("ElasticQuota x/x is left out of the tree: ElasticQuota x/x: spec.min.cpu: negative quantity"), notes);
        assertTrue(notes.contains("ElasticQuota orphan is left out of the tree: its parent gone does not exist"), notes);
        Map<String, JsonNode> q = byName(json);
        assertEquals("60", q.get("b").at("/sharedWeight/cpu").asText(), "a shared weight that is not JSON is the max");
        assertEquals("Success", json.at("/quota/status").asText());
    }
}
