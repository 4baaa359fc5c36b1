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
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code explain} runs the framework from PreFilter to Permit: a gang member held back, waiting, or going on to bind. */
class GangExplainTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static String podGroup(int minMember) {
        return """
                apiVersion: scheduling.sigs.k8s.io/v1alpha1
                kind: PodGroup
                metadata: {name: spark, namespace: default}
                spec: {minMember: %d, scheduleTimeoutSeconds: 120}
                ---
                """.formatted(minMember);
    }

    private static String member(String name, String nodeName) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: default, labels: {pod-group.scheduling.sigs.k8s.io: spark}}
                spec:
                  %s
                  containers: [{name: main, resources: {requests: {cpu: "1", memory: 1Gi}}}]
                status: {phase: %s}
                ---
                """.formatted(name, nodeName == null ? "schedulerName: koord-scheduler" : "nodeName: " + nodeName,
                nodeName == null ? "Pending" : "Running");
    }

    private static final String NODE = SchedulerExplainCommandTest.node("n1", "16", "64Gi", "");

    static Stream<Arguments> gangs() {
        return Stream.of(
                Arguments.of("short of members: held back at PreFilter", podGroup(3) + member("a", null) + member("b", null),
                        "/preFilter/Coscheduling/status", "Unschedulable",
                        "gang default/spark: 2 of its 3 members exist; waiting for the rest", "null"),
                Arguments.of("all members exist, none placed: waits at Permit", podGroup(3) + member("a", null) + member("b", null)
                        + member("c", null), "/permit/status", "Wait",
                        "Coscheduling: gang default/spark: 1 of the 3 members it needs are placed", "n1"),
                Arguments.of("a member already bound (once-satisfied): allowed", podGroup(3) + member("a", null)
                        + member("b", null) + member("c", "n1"), "/permit/status", "Allow", null, "n1"),
                Arguments.of("no PodGroup: the gang cannot be used", member("a", null), "/preFilter/Coscheduling/status",
                        "Unschedulable", "gang: PodGroup default/spark does not exist (yet)", "null"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gangs")
    void showsTheGang(String name, String input, String statusAt, String status, String why, String selected) throws Exception {
        Path file = dir.resolve("in.yaml");
        Files.writeString(file, NODE + input);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = SchedulerExplainCommand.run(new String[] {"-f", file.toString(), "--pod", "default/a", "-o", "json", "--now",
                SchedulerExplainCommandTest.NOW}, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Clock.systemUTC());
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        JsonNode json = JSON.readTree(out.toString(StandardCharsets.UTF_8));
        assertEquals(status, json.at(statusAt).asText(), json.toPrettyString());
        if (why != null) {
            String said = json.at("/permit/waitingFor").isMissingNode() ? json.at("/preFilter/Coscheduling/reasons/0").asText()
                    : json.at("/permit/waitingFor").asText();
            assertEquals(why, said, json.toPrettyString());
        }
        assertEquals(selected, json.get("selected").asText(), json.toPrettyString());
        assertEquals("Success", json.at("/nodes/0/filter").asText(), "every node is still judged: " + json);
        if (status.equals("Wait")) {
            assertEquals(120, json.at("/permit/timeoutSeconds").asLong());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gangs")
    void saysItInText(String name, String input, String statusAt, String status, String why, String selected) throws Exception {
        Path file = dir.resolve("in.yaml");
        Files.writeString(file, NODE + input);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SchedulerExplainCommand.run(new String[] {"-f", file.toString(), "--pod", "default/a", "--now", SchedulerExplainCommandTest.NOW},
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), Clock.systemUTC());
        String first = out.toString(StandardCharsets.UTF_8).lines().findFirst().orElse("");
        String expected = switch (status) {
            case "Wait" -> "would be reserved on n1 and wait at Permit up to 120 s";
            case "Allow" -> "would be bound to n1";
            default -> "not scheduled now, held back at PreFilter";
        };
        assertTrue(first.startsWith("Pod default/a: " + expected), first);
        if (why != null) {
            assertTrue(first.contains(why), first);
        }
    }
}
