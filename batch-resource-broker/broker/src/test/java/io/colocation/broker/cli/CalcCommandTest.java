package io.colocation.broker.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `colocation calc` on YAML and JSON files, as an operator runs it. */
class CalcCommandTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-21T08:05:00Z"), ZoneOffset.UTC);

    private record Run(int exit, String out, String err) {
    }

    private static Run run(InputStream stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CalcCommand.run(args, stdin, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), CLOCK);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Run run(String... args) {
        return run(new ByteArrayInputStream(new byte[0]), args);
    }

    private static String resource(String name) throws URISyntaxException {
        return Path.of(CalcCommandTest.class.getResource("/calc/" + name).toURI()).toString();
    }

    @Test
    void workedExampleAsJsonHasExactlyTheDocumentedShape() throws Exception {
        Run r = run("-f", resource("worked-example.yaml"), "-o", "json");
        assertEquals(0, r.exit(), r.err());
        JsonNode node = new ObjectMapper().readTree(r.out()).get("nodes").get(0);
        assertEquals("n1", node.get("name").asText());
        assertEquals("{\"kubernetes.io/batch-cpu\":25000,\"kubernetes.io/batch-memory\":33000000000,"
                + "\"kubernetes.io/mid-cpu\":0,\"kubernetes.io/mid-memory\":0}", node.get("allocatable").toString());
        assertEquals("{\"kubernetes.io/batch-cpu\":25000,\"kubernetes.io/batch-memory\":33000000000}",
                node.get("originExtendedAllocatable").toString());
        assertEquals(false, node.get("degraded").asBoolean());
        assertTrue(node.get("explain").toString().contains(
                "batchAllocatable[CPU(Milli-Core)]:25000 = nodeCapacity:100000 - nodeSafetyMargin:35000"
                        + " - systemUsageOrNodeReserved:7000 - podHPUsed:33000"), node.get("explain").toString());
        assertEquals(java.util.List.of("name", "allocatable", "originExtendedAllocatable", "degraded", "explain"),
                iterableToList(node.fieldNames()));
    }

    @Test
    void jsonListsStdinStalenessLabelsAndYarnAllocations() throws Exception {
        byte[] metrics = Files.readAllBytes(Path.of(resource("metrics-and-config.yaml")));
        Run r = run(new ByteArrayInputStream(metrics), "-f", resource("two-nodes.json"), "-f", "-", "--now", "2026-11-21T08:05:00Z",
                "-o", "json");
        assertEquals(0, r.exit(), r.err());
        JsonNode nodes = new ObjectMapper().readTree(r.out()).get("nodes");
        JsonNode fresh = nodes.get(0);
        // cap 16 cores, reclaim 80 % (label) -> margin 3.2; kubelet reserved 1 core > system 0.5; HP used 2
        // origin cpu = 16000 - 3200 - 1000 - 2000 = 9800; minus YARN's 4000 -> 5800
        assertEquals(9800, fresh.get("originExtendedAllocatable").get("kubernetes.io/batch-cpu").asLong());
        assertEquals(5800, fresh.get("allocatable").get("kubernetes.io/batch-cpu").asLong());
        // memory: 64Gi - 35 % (22.4Gi, truncated bytes) - max(1Gi, 2Gi reserved) - 6Gi; minus YARN's 4Gi
        long gi = 1L << 30;
        long margin = (long) ((double) (64 * gi) * ((double) (100 - 65) / 100.0));
        assertEquals(64 * gi - margin - 2 * gi - 6 * gi, fresh.get("originExtendedAllocatable").get("kubernetes.io/batch-memory").asLong());
        assertEquals(64 * gi - margin - 2 * gi - 6 * gi - 4 * gi, fresh.get("allocatable").get("kubernetes.io/batch-memory").asLong());

        JsonNode stale = nodes.get(1);
        assertEquals("stale", stale.get("name").asText());
        assertTrue(stale.get("degraded").asBoolean());
        assertEquals("{}", stale.get("allocatable").toString(), "a degraded node loses its batch and mid resources");
        assertEquals(0, stale.get("originExtendedAllocatable").get("kubernetes.io/batch-cpu").asLong());
        assertTrue(r.err().contains("skipped Service default/web"), r.err());
    }

    @Test
    void textOutputIsATableWithTheExplanations() throws Exception {
        Run r = run("-f", resource("worked-example.yaml"), "--now=2026-11-21T08:05:00Z");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("NODE"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("n1") && l.contains("25000") && l.contains("33000000000")), r.out());
        assertTrue(r.out().contains("  batchAllocatable[Mem(GB)]:33 = nodeCapacity:120"), r.out());
    }

    @Test
    void defaultConfigurationLeavesColocationDisabledAsKoordinatorDoes(@TempDir Path dir) throws Exception {
        String yaml = Files.readString(Path.of(resource("worked-example.yaml")));
        Path noConfig = dir.resolve("no-config.yaml");
        Files.writeString(noConfig, yaml.substring(yaml.indexOf("apiVersion: v1\nkind: Node")));
        Run r = run("-f", noConfig.toString(), "-o", "json");
        assertEquals(0, r.exit(), r.err());
        JsonNode node = new ObjectMapper().readTree(r.out()).get("nodes").get(0);
        assertEquals("{}", node.get("allocatable").toString());
        assertTrue(node.get("explain").toString().contains("node colocation is disabled in Config, reason: DisableInConfig"));
    }

    @Test
    void badInputFailsNamingTheFileTheObjectAndTheField(@TempDir Path dir) throws Exception {
        Path malformed = write(dir, "malformed.yaml", "kind: Node\nmetadata: {name: n1\n");
        Run r = run("-f", malformed.toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().contains(malformed + ": malformed YAML at line"), r.err());

        String node = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {capacity: {cpu: '8', memory: 8Gi}, allocatable: {cpu: '8', memory: 8Gi}}\n---\n";
        Path negative = write(dir, "negative.yaml", node + """
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: ns}
                spec: {nodeName: n1, containers: [{name: c, resources: {requests: {cpu: "-2"}}}]}
                status: {phase: Running}
                """);
        r = run("-f", negative.toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("Pod ns/p: spec.containers[0].resources.requests.cpu: negative quantity \"-2\""), r.err());
        assertTrue(r.err().contains(negative.toString()), r.err());

        Path badConfig = write(dir, "config.yaml", node + """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: slo-controller-config, namespace: koordinator-system}
                data: {colocation-config: '{"enable": true, "memoryReclaimThresholdPercent": -10}'}
                """);
        r = run("-f", badConfig.toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().contains(badConfig + ": ConfigMap koordinator-system/slo-controller-config: data.colocation-config:"
                + " memoryReclaimThresholdPercent=-10 must be between 0 and 10000"), r.err());

        Path orphan = write(dir, "orphan.yaml", node + "apiVersion: slo.koordinator.sh/v1alpha1\nkind: NodeMetric\nmetadata: {name: n2}\n");
        r = run("-f", orphan.toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().contains(orphan + ": NodeMetric n2 names no Node in the input"), r.err());

        Path badTime = write(dir, "time.yaml", node + "apiVersion: slo.koordinator.sh/v1alpha1\nkind: NodeMetric\nmetadata: {name: n1}\n"
                + "status: {updateTime: yesterday}\n");
        r = run("-f", badTime.toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("NodeMetric n1: status.updateTime \"yesterday\" is not an RFC 3339 time"), r.err());

        Path nameless = write(dir, "nameless.yaml", "apiVersion: v1\nkind: Pod\nspec: {nodeName: n1}\n");
        r = run("-f", nameless.toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().contains(nameless + ": a Pod without metadata.name"), r.err());

        r = run("-f", dir.resolve("missing.yaml").toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("missing.yaml: no such file"), r.err());
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertEquals(2, run().exit());
        assertEquals(2, run("-f").exit());
        assertEquals(2, run("-f", "x.yaml", "-o", "xml").exit());
        assertEquals(2, run("-f", "x.yaml", "--now", "noon").exit());
        assertEquals(2, run("--frobnicate").exit());
        Run help = run("--help");
        assertEquals(0, help.exit());
        assertTrue(help.out().startsWith("Usage: colocation calc -f PATH"));
    }

    private static Path write(Path dir, String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private static <T> java.util.List<T> iterableToList(java.util.Iterator<T> it) {
        java.util.List<T> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
