package io.colocation.broker.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bad and awkward inputs of {@code src/test/resources/cli-corpus} (listed with what each error must
 * say in its {@code EXPECTED} file; add a case there when you find one): every one is answered with exit 1,
 * an error naming the file and the problem, nothing on standard output and no stack trace.
 */
class CliCorpusTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-21T08:05:00Z"), ZoneOffset.UTC);
    private static final Path CORPUS = Path.of("src/test/resources/cli-corpus");

    private record Run(int exit, String out, String err) {
    }

    private static Run calc(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CalcCommand.run(args, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), CLOCK);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void assertNamedError(Run r, String file, String expected) {
        assertEquals(1, r.exit(), r.err());
        assertEquals("", r.out());
        String error = r.err().lines().filter(l -> !l.startsWith("colocation calc: warning")).findFirst().orElse("");
        assertTrue(error.startsWith("colocation calc: "), r.err());
        assertTrue(error.contains(file), "the error names the file: " + r.err());
        assertTrue(error.contains(expected), "expected \"" + expected + "\" in: " + r.err());
        for (String trace : List.of("Exception", "\tat ", "java.lang", "com.fasterxml", "org.yaml")) {
            assertFalse(r.err().contains(trace), "no raw exception text: " + r.err());
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusCaseIsANamedErrorWithoutStackTrace() throws Exception {
        List<DynamicTest> cases = new ArrayList<>();
        for (String line : Files.readAllLines(CORPUS.resolve("EXPECTED"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\t", 2);
            String file = CORPUS.resolve(parts[0]).toString();
            cases.add(DynamicTest.dynamicTest(parts[0], () -> assertNamedError(calc("-f", file), parts[0], parts[1])));
        }
        try (Stream<Path> files = Files.list(CORPUS)) {
            assertEquals(cases.size(), files.filter(p -> !p.getFileName().toString().equals("EXPECTED")).count(),
                    "every corpus file has its line in EXPECTED");
        }
        return cases.stream();
    }

    /** The worked example with one field set to null, each in turn: a result, or an error naming the file. */
    @TestFactory
    Stream<DynamicTest> aNullFieldAnywhereIsAResultOrANamedError(@TempDir Path dir) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper yaml = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        List<com.fasterxml.jackson.databind.JsonNode> docs = new ArrayList<>();
        try (var it = yaml.readerFor(com.fasterxml.jackson.databind.JsonNode.class)
                .readValues(Path.of("../../conf/examples/calc-worked-example.yaml").toFile())) {
            while (it.hasNext()) {
                docs.add((com.fasterxml.jackson.databind.JsonNode) it.next());
            }
        }
        List<DynamicTest> cases = new ArrayList<>();
        int n = 0;
        for (io.colocation.testsupport.cli.NullFieldVariants.Variant v : io.colocation.testsupport.cli.NullFieldVariants.of(docs)) {
            Path file = dir.resolve("variant-" + n++ + ".json");
            cases.add(DynamicTest.dynamicTest(v.field() + " = null", () -> {
                Files.writeString(file, new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(v.documents()));
                Run r = calc("-f", file.toString(), "--now", "2026-11-21T08:05:00Z");
                assertTrue(r.exit() == 0 || r.exit() == 1, v.field() + " = null: " + r.err());
                if (r.exit() == 1) {
                    assertTrue(r.err().contains(file.getFileName().toString()), v.field() + " = null: " + r.err());
                    assertNamedError(r, file.getFileName().toString(), "");
                }
            }));
        }
        return cases.stream();
    }

    @Test
    void flowStyleYamlAndPipesAreRead(@TempDir Path dir) throws Exception {
        Path flow = dir.resolve("flow.yaml");
        Files.writeString(flow, "{apiVersion: v1, kind: Node, metadata: {name: n1}, status: {capacity: {cpu: \"8\", memory: 32Gi},"
                + " allocatable: {cpu: \"8\", memory: 32Gi}}}\n");
        Run r = calc("-f", flow.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("n1"), r.out());

        Path fifo = dir.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Thread writer = new Thread(() -> {
            try {
                Files.writeString(fifo, Files.readString(flow));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.start();
        Run piped = calc("-f", fifo.toString());
        writer.join(10_000);
        assertEquals(0, piped.exit(), "a pipe (-f <(kubectl ...)) is read as a stream: " + piped.err());
        assertTrue(piped.out().contains("n1"), piped.out());
    }

    @Test
    void anEndlessInputIsRefusedNotAnOutOfMemoryError() {
        assertNamedError(calc("-f", "/dev/zero"), "/dev/zero", "malformed YAML");
    }

    @Test
    void aDirectoryAndAMissingFileAreNamed() {
        assertNamedError(calc("-f", CORPUS.toString()), "cli-corpus", "is a directory");
        assertNamedError(calc("-f", "no-such.yaml"), "no-such.yaml", "no such file");
    }

    @Test
    void aYamlDumpOfManyMegabytesIsRead(@TempDir Path dir) throws Exception {
        StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: n1}\n"
                + "  status:\n    capacity: {cpu: \"64\", memory: 256Gi}\n    allocatable: {cpu: \"64\", memory: 256Gi}\n");
        for (int i = 0; yaml.length() < 8 * 1024 * 1024; i++) {
            yaml.append("- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: pod-").append(i).append("\n    namespace: default\n")
                    .append("    annotations: {note: \"").append("x".repeat(200)).append("\"}\n")
                    .append("  spec:\n    nodeName: n1\n    containers:\n    - name: c\n      image: x\n")
                    .append("      resources: {requests: {cpu: 1m, memory: 1Mi}}\n  status: {phase: Running}\n");
        }
        Path file = dir.resolve("pods.yaml");
        Files.writeString(file, yaml);
        Run r = calc("-f", file.toString(), "-o", "json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\"name\":\"n1\""), r.out());
    }

    @Test
    void aBadPodInTheSecondFileIsReportedUnderItsOwnFileAndAPodOnAnUnknownNodeIsNamed(@TempDir Path dir) throws Exception {
        Path nodes = dir.resolve("nodes.yaml");
        Files.writeString(nodes, "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  capacity: {cpu: \"16\", memory: 64Gi}\n"
                + "  allocatable: {cpu: \"16\", memory: 64Gi}\n");
        Path pods = dir.resolve("pods.yaml");
        Files.writeString(pods, "apiVersion: v1\nkind: Pod\nmetadata: {name: p1, namespace: default}\nspec:\n  nodeName: n1\n"
                + "  containers:\n  - name: c\n    image: x\n    resources: {requests: {cpu: lots}}\nstatus: {phase: Running}\n");
        assertNamedError(calc("-f", nodes.toString(), "-f", pods.toString()), "pods.yaml", "\"lots\" is not a Kubernetes quantity");

        Files.writeString(pods, "apiVersion: v1\nkind: Pod\nmetadata: {name: p1, namespace: default}\nspec:\n  nodeName: n9\n"
                + "  containers:\n  - name: c\n    image: x\nstatus: {phase: Running}\n");
        Run r = calc("-f", nodes.toString(), "-f", pods.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("warning: " + pods + ": Pod default/p1 is bound to Node n9, which is not in the input: not counted"),
                r.err());
    }
}
