package io.colocation.broker.cli;

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
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code colocation quota explain} on two tenants with a namespace and a YARN queue each (src/test/resources/quota):
 * the runtime of every quota as the engine computes it, YARN leaves asking what their queue allocated and has
 * pending, the CapacityScheduler settings that follow, and bad input named.
 */
class QuotaExplainCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TREE = "src/test/resources/quota/tree.yaml";
    private static final String PODS = "src/test/resources/quota/pods.yaml";
    private static final String REPORT = "src/test/resources/quota/scheduler.json";

    private record Run(int code, String out, String err) {
    }

    private static Run run(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = QuotaExplainCommand.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static JsonNode quota(JsonNode tree, String name) {
        for (JsonNode q : tree.path("quotas")) {
            if (q.path("name").asText().equals(name)) {
                return q;
            }
        }
        throw new AssertionError("no quota " + name + " in " + tree);
    }

    @Test
    void twoTenantsOnBothSides() throws Exception {
        Run r = run("", "-f", TREE, "-f", PODS, "-f", REPORT, "-o", "json");
        assertEquals(0, r.code(), r.err());
        JsonNode tree = JSON.readTree(r.out()).path("trees").get(0);
        assertEquals("batch", tree.path("treeId").asText());
        assertEquals(List.of("batch-root", "team-a", "team-a-k8s", "team-a-yarn", "team-b", "team-b-k8s", "team-b-yarn"),
                JSON.convertValue(tree.path("quotas").findValuesAsText("name"), List.class));
        assertEquals(List.of("tree root", "parent", "kubernetes", "yarn", "parent", "kubernetes", "yarn"),
                JSON.convertValue(tree.path("quotas").findValuesAsText("kind"), List.class));
        // team-a's pods: one bound (used), one pending (requested too); its YARN queue: 4 allocated + 4 pending vcores.
        JsonNode k8sA = quota(tree, "team-a-k8s");
        assertEquals("{\"kubernetes.io/batch-cpu\":\"4k\",\"kubernetes.io/batch-memory\":\"17179869184\"}", k8sA.path("request").toString());
        assertEquals("{\"kubernetes.io/batch-cpu\":\"2k\",\"kubernetes.io/batch-memory\":\"8589934592\"}", k8sA.path("used").toString());
        JsonNode yarnA = quota(tree, "team-a-yarn");
        assertEquals("root.team-a", yarnA.path("yarnQueue").asText());
        assertEquals("{\"kubernetes.io/batch-cpu\":\"8k\",\"kubernetes.io/batch-memory\":\"17179869184\"}", yarnA.path("request").toString(),
                "the default partition only: the gpu partition's use is not Batch");
        // 16 cores: each tenant its min of 8 (both ask 12), within a tenant each leaf its min of 4.
        assertEquals("{\"kubernetes.io/batch-cpu\":\"8k\",\"kubernetes.io/batch-memory\":\"34359738368\"}", quota(tree, "team-a").path("runtime").toString());
        assertEquals("{\"kubernetes.io/batch-cpu\":\"4k\",\"kubernetes.io/batch-memory\":\"17179869184\"}", yarnA.path("runtime").toString());
        assertEquals("{\"kubernetes.io/batch-cpu\":\"8k\",\"kubernetes.io/batch-memory\":\"17179869184\"}", quota(tree, "team-b-yarn").path("used").toString());
        assertEquals("{\"yarn.scheduler.capacity.root.org.capacity\":\"[memory=16384,vcores=4]\","
                + "\"yarn.scheduler.capacity.root.org.maximum-capacity\":\"[memory=16384,vcores=4]\","
                + "\"yarn.scheduler.capacity.root.org.team-b.capacity\":\"[memory=16384,vcores=4]\","
                + "\"yarn.scheduler.capacity.root.org.team-b.maximum-capacity\":\"[memory=16384,vcores=4]\","
                + "\"yarn.scheduler.capacity.root.team-a.capacity\":\"[memory=16384,vcores=4]\","
                + "\"yarn.scheduler.capacity.root.team-a.maximum-capacity\":\"[memory=16384,vcores=4]\"}",
                tree.path("capacitySchedulerSettings").toString());
        JsonNode queueA = tree.path("yarnQueues").get(2);
        assertEquals("{\"queue\":\"root.team-a\",\"quota\":\"team-a-yarn\",\"capacity\":\"[memory=16384,vcores=4]\","
                + "\"maximumCapacity\":\"[memory=16384,vcores=4]\",\"allocated\":\"[memory=8192,vcores=4]\",\"pending\":\"[memory=8192,vcores=4]\","
                + "\"effectiveMaximumNow\":\"[memory=65536,vcores=16]\"}", queueA.toString());
        assertEquals(List.of("ElasticQuota team-b/team-b-yarn uses more than its runtime: kubernetes.io/batch-cpu:8k > kubernetes.io/batch-cpu:4k"),
                JSON.convertValue(JSON.readTree(r.out()).path("notes"), List.class));

        Run text = run("", "-f", TREE, "-f", PODS, "-f", REPORT);
        assertEquals(0, text.code(), text.err());
        assertEquals("""
                Tree batch (root batch-root), total kubernetes.io/batch-cpu:16k,kubernetes.io/batch-memory:68719476736
                  quota (kind): min / request / runtime / used
                  batch-root (tree root): kubernetes.io/batch-cpu:16k,kubernetes.io/batch-memory:68719476736 / kubernetes.io/batch-cpu:24k,kubernetes.io/batch-memory:68719476736 / kubernetes.io/batch-cpu:16k,kubernetes.io/batch-memory:68719476736 / kubernetes.io/batch-cpu:18k,kubernetes.io/batch-memory:51539607552
                    team-a (parent): kubernetes.io/batch-cpu:8k,kubernetes.io/batch-memory:34359738368 / kubernetes.io/batch-cpu:12k,kubernetes.io/batch-memory:34359738368 / kubernetes.io/batch-cpu:8k,kubernetes.io/batch-memory:34359738368 / kubernetes.io/batch-cpu:6k,kubernetes.io/batch-memory:17179869184
                """, text.out().lines().limit(4).map(l -> l + "\n").reduce("", String::concat));
        assertTrue(text.out().contains("      team-a-yarn (yarn root.team-a): "), text.out());
        assertTrue(text.out().contains("  CapacityScheduler settings (capacity-scheduler.xml or yarn schedulerconf):\n"
                + "    yarn.scheduler.capacity.root.org.capacity=[memory=16384,vcores=4]\n"), text.out());
    }

    @Test
    void withoutAReportYarnLeavesAskNothingAndSaySo() throws Exception {
        Run r = run("", "-f", TREE, "-o", "json");
        assertEquals(0, r.code(), r.err());
        JsonNode out = JSON.readTree(r.out());
        assertEquals(List.of("YARN leaf team-a-yarn: no scheduler report given, so its demand counts 0",
                "YARN leaf team-b-yarn: no scheduler report given, so its demand counts 0"),
                JSON.convertValue(out.path("notes"), List.class));
        assertEquals("{\"queue\":\"root.team-a\",\"quota\":\"team-a-yarn\",\"capacity\":\"[memory=16384,vcores=4]\","
                + "\"maximumCapacity\":\"[memory=16384,vcores=4]\"}", out.path("trees").get(0).path("yarnQueues").get(2).toString(),
                "a YARN leaf that asks nothing lends its share but keeps its min in YARN: the tenant's guarantee, usable at once");
    }

    @Test
    void badInputIsNamed(@TempDir Path dir) throws Exception {
        Path fair = dir.resolve("fair.json");
        Files.writeString(fair, "{\"scheduler\": {\"schedulerInfo\": {\"type\": \"fairScheduler\"}}}");
        Path negative = dir.resolve("negative.json");
        Files.writeString(negative, Files.readString(Path.of(REPORT)).replace("\"pending\": {\"memory\": 8192, \"vCores\": 4}",
                "\"pending\": {\"memory\": -1, \"vCores\": 4}"));
        Path plain = dir.resolve("plain.yaml");
        Files.writeString(plain, "apiVersion: scheduling.sigs.k8s.io/v1alpha1\nkind: ElasticQuota\nmetadata: {name: a, namespace: a}\n"
                + "spec: {max: {cpu: \"2\"}}\n");
        record Case(String[] args, int code, String err) {
        }
        for (Case c : List.of(
                new Case(new String[] {"-f", TREE, "-f", fair.toString()}, 1, "colocation quota explain: " + fair + " document 1: the ResourceManager"
                        + " runs fairScheduler; a tree's YARN leaves are CapacityScheduler queues\n"),
                new Case(new String[] {"-f", TREE, "-f", negative.toString()}, 1, "colocation quota explain: " + negative + " document 1: queue"
                        + " root.team-a pending: memory and vCores must be whole numbers not below 0, not {\"memory\":-1,\"vCores\":4}\n"),
                new Case(new String[] {"-f", plain.toString()}, 1, "colocation quota explain: no tree over Batch in the input: a tree is an"
                        + " ElasticQuota with labels quota.scheduling.koordinator.sh/is-root: \"true\" and quota.scheduling.koordinator.sh/tree-id,"
                        + " and the quotas below it (1 quotas of the default tree given: colocation k8s-scheduler explain shows those)\n"),
                new Case(new String[] {"-f", REPORT, "-f", REPORT}, 1, "colocation quota explain: " + REPORT + " document 1: a second scheduler"
                        + " report; give the ResourceManager's report once\n"),
                new Case(new String[] {"-f", dir.resolve("missing.yaml").toString()}, 1, "colocation quota explain: " + dir.resolve("missing.yaml")
                        + ": no such file\n"),
                new Case(new String[] {}, 2, null))) {
            Run r = run("", c.args());
            assertEquals(c.code(), r.code(), String.join(" ", c.args()) + ": " + r.err());
            if (c.err() != null) {
                assertEquals(c.err(), r.err());
            }
            assertEquals("", r.out());
        }
    }
}
