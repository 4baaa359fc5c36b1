package io.colocation.koordlet.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.ThreadMXBean;
import io.colocation.koordlet.collect.CollectTargets.YarnTarget;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The koordlet's side of the copilot channel against impostors and broken peers: it sends its token only to a peer it
 * verified through /proc, and refuses container ids, cgroup paths and processes that are not the NodeManager's.
 */
class CopilotClientTest {
    private static final String PARENT = "kubepods/besteffort/hadoop-yarn";
    private static final String GOOD = "container_1700000000000_0001_01_000002";
    private static final long SELF = ProcessHandle.current().pid();

    private static CopilotClient client(FakeCopilot fake) throws Exception {
        return CopilotClient.create(fake.url(), "", Path.of("/proc"), List.of("yarn"));
    }

    private static String information(long pid, Path tokenFile) {
        return "{\"name\":\"yarn\",\"version\":\"v1\",\"pid\":" + pid + ",\"tokenFile\":\"" + tokenFile + "\"}";
    }

    private static Path token(Path dir, String value) throws Exception {
        Path file = Files.writeString(dir.resolve("token"), value + "\n");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    @Test
    void aForeignContainerIdACgroupOutsideTheParentAndAForeignProcessAreRefusedAndCounted(@TempDir Path dir) throws Exception {
        Path token = token(dir, "t0ken");
        try (FakeCopilot fake = new FakeCopilot()) {
            fake.on("/information", FakeCopilot.json(200, information(SELF, token)));
            fake.on("/v1/containers", FakeCopilot.json(200, "["
                    + "{\"containerID\":\"../../../system.slice/sshd.service\",\"state\":\"RUNNING\",\"pids\":[" + SELF + "]},"
                    + "{\"containerID\":\"" + GOOD + "\",\"state\":\"RUNNING\",\"cgroupDir\":\"../../../system.slice/sshd.service\","
                    + "\"vcores\":1,\"memoryMB\":512,\"pids\":[" + SELF + ",1]}]"));
            CopilotClient client = client(fake);

            Optional<List<YarnTarget>> listed = client.runningContainers(PARENT);

            assertTrue(listed.isPresent(), client.problems().toString());
            assertEquals(1, listed.get().size(), "only the YARN container: " + listed.get());
            YarnTarget c = listed.get().get(0);
            assertEquals(GOOD, c.containerID());
            assertEquals("", c.cgroupDir(), "a cgroup that is not <parent>/<id> is not taken");
            assertEquals(List.of((int) SELF), c.pids(), "init (pid 1) does not descend from the NodeManager");
            assertEquals(Map.of("container-id", 1L, "cgroup-dir", 1L, "pid", 1L), client.refusals());
            assertTrue(fake.sawToken("t0ken"), "the verified peer got the token");
            assertTrue(client.problems().keySet().stream().anyMatch(k -> k.contains("container-id")), client.problems().toString());
            assertTrue(client.ownedByNodeManager((int) SELF));
            assertFalse(client.ownedByNodeManager(1));
            assertEquals(2L, client.refusals().get("pid"));
        }
    }

    @Test
    void aPeerThatDoesNotHoldThePortOrNamesNoPidNeverGetsTheToken(@TempDir Path dir) throws Exception {
        Path token = token(dir, "s3cret");
        try (FakeCopilot fake = new FakeCopilot()) {
            fake.on("/v1/containers", FakeCopilot.json(200, "[]"));
            for (String info : List.of(information(1, token), "{\"name\":\"yarn\",\"version\":\"v1\"}")) {
                fake.on("/information", FakeCopilot.json(200, info));
                CopilotClient client = client(fake);
                assertTrue(client.runningContainers(PARENT).isEmpty(), info);
                assertEquals(1L, client.refusals().get("peer"), info);
                assertTrue(client.killContainer(GOOD, "test").isPresent(), "nothing killed through a refused peer");
            }
            assertFalse(fake.sawToken("s3cret"), "the token never left: " + fake.requests.stream().map(r -> r[0]).toList());
            assertTrue(fake.requests.stream().noneMatch(r -> r[0].startsWith("/v1/")), "no container API call at all");
        }
    }

    @Test
    void aTokenFileOfAnotherOwnerIsNotSent(@TempDir Path dir) throws Exception {
        assumeTrue(isRoot(), "needs root to give a file to nobody");
        Path token = token(dir, "nobodys");
        Files.setAttribute(token, "unix:uid", 65534);
        try (FakeCopilot fake = new FakeCopilot()) {
            fake.on("/information", FakeCopilot.json(200, information(SELF, token)));
            fake.on("/v1/containers", FakeCopilot.json(200, "[]"));
            CopilotClient client = client(fake);
            assertTrue(client.runningContainers(PARENT).isEmpty());
            assertTrue(client.problems().values().stream().anyMatch(v -> v.contains("belongs to uid 65534")), client.problems().toString());
            assertFalse(fake.sawToken("nobodys"));
        }
    }

    /** The attack: a local user answers on the copilot's port while no NodeManager holds it. */
    @Test
    void aCopilotRunByAnUnprivilegedUserIsRefusedAndGetsNoToken(@TempDir Path dir) throws Exception {
        assumeTrue(isRoot(), "needs root to start a process as nobody");
        Path source = dir.resolve("Impostor.java");
        Files.writeString(source, String.join("\n",
                "import com.sun.net.httpserver.*; import java.net.*; import java.nio.charset.*;",
                "public class Impostor { public static void main(String[] a) throws Exception {",
                "  HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);",
                "  long pid = ProcessHandle.current().pid();",
                "  s.createContext(\"/\", ex -> { String t = ex.getRequestHeaders().getFirst(\"X-Copilot-Token\");",
                "    System.out.println(\"REQUEST \" + ex.getRequestURI().getPath() + \" token=\" + t); System.out.flush();",
                "    byte[] b = (ex.getRequestURI().getPath().equals(\"/information\") ? \"{\\\"name\\\":\\\"yarn\\\",\\\"version\\\":\\\"v1\\\",\\\"pid\\\":\" + pid",
                "      + \",\\\"tokenFile\\\":\\\"" + dir.resolve("token") + "\\\"}\" : \"[{\\\"containerID\\\":\\\"../../../system.slice/sshd.service\\\",\\\"state\\\":\\\"RUNNING\\\",\\\"pids\\\":[1]}]\").getBytes(StandardCharsets.UTF_8);",
                "    ex.sendResponseHeaders(200, b.length); ex.getResponseBody().write(b); ex.close(); });",
                "  s.start(); System.out.println(\"PORT \" + s.getAddress().getPort()); System.out.flush(); } }", ""));
        token(dir, "roots");
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(source, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Process impostor = new ProcessBuilder("runuser", "-u", "nobody", "--", Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx32m", source.toString()).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(impostor.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread reader = new Thread(() -> out.lines().forEach(seen::add));
            reader.setDaemon(true);
            reader.start();
            assertTrue(line != null && line.startsWith("PORT "), "the impostor started: " + line);
            int port = Integer.parseInt(line.substring(5).trim());
            CopilotClient client = CopilotClient.create("http://127.0.0.1:" + port, "", Path.of("/proc"), List.of("yarn"));

            assertTrue(client.runningContainers(PARENT).isEmpty());
            assertTrue(client.killContainer(GOOD, "test").isPresent());

            assertEquals(2L, client.refusals().get("peer"));
            assertTrue(client.problems().values().stream().anyMatch(v -> v.contains("held by uid 65534")), client.problems().toString());
            impostor.destroy();
            impostor.waitFor(10, TimeUnit.SECONDS);
            reader.join(5000);
            String requests = String.join("\n", seen);
            assertTrue(requests.contains("REQUEST /information token=null"), "it was asked who it is: " + requests);
            assertFalse(requests.contains("token=roots"), requests);
            assertFalse(requests.contains("/v1/"), "only /information was asked: " + requests);
        } finally {
            impostor.destroyForcibly();
        }
    }

    @Test
    void anOversizedAnswerIsDroppedWhileItStreamsAndASlowOneEndsAtTheDeadline(@TempDir Path dir) throws Exception {
        Path token = token(dir, "t");
        try (FakeCopilot fake = new FakeCopilot()) {
            fake.on("/information", FakeCopilot.json(200, information(SELF, token)));
            byte[] chunk = new byte[1 << 20];
            java.util.Arrays.fill(chunk, (byte) ' ');
            fake.on("/v1/containers", ex -> {
                ex.sendResponseHeaders(200, 0);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write('[');
                    for (int i = 0; i < 300; i++) { // 300 MB of whitespace: valid JSON if read whole
                        out.write(chunk);
                    }
                    out.write(']');
                } catch (java.io.IOException e) {
                    // the client hung up: what it should do
                }
            });
            CopilotClient client = client(fake);
            ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
            long allocated = threads.getCurrentThreadAllocatedBytes();
            long start = System.nanoTime();
            assertTrue(client.runningContainers(PARENT).isEmpty());
            assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(CopilotClient.LIST_DEADLINE.plusSeconds(1)) < 0);
            assertTrue(client.problems().values().stream().anyMatch(v -> v.contains("more than " + CopilotClient.MAX_BODY)),
                    client.problems().toString());
            assertTrue(threads.getCurrentThreadAllocatedBytes() - allocated < 64L << 20, "the caller never held the answer whole");

            fake.on("/v1/containers", ex -> {
                ex.sendResponseHeaders(200, 0);
                try (OutputStream out = ex.getResponseBody()) {
                    for (int i = 0; i < 30; i++) { // a byte a second
                        out.write('[');
                        out.flush();
                        Thread.sleep(1000);
                    }
                } catch (java.io.IOException | InterruptedException e) {
                    // the client hung up
                }
            });
            start = System.nanoTime();
            assertTrue(client.runningContainers(PARENT).isEmpty());
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(took < CopilotClient.LIST_DEADLINE.toMillis() + 1500, "a slow body ends at the deadline: " + took + " ms");
            assertTrue(client.problems().values().stream().anyMatch(v -> v.contains("within")), client.problems().toString());
        }
    }

    /** A container list of {@code count} containers, {@code running} of them RUNNING, about 240 bytes each. */
    private static String list(int count, int running) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            String id = String.format("container_1700000000000_0001_01_%06d", i + 2);
            b.append(i == 0 ? "" : ",").append("{\"containerID\":\"").append(id).append("\",\"state\":\"")
                    .append(i < running ? "RUNNING" : "COMPLETE").append("\",\"cgroupDir\":\"").append(PARENT).append('/').append(id)
                    .append("\",\"vcores\":1,\"memoryMB\":512,\"priority\":0,\"type\":\"TASK\",\"pids\":[").append(SELF).append("]}");
        }
        return b.append(']').toString();
    }

    /**
     * The probe's answers of 1, 3 and 8.3 MB ended the koordlet with OutOfMemoryError: read in a JVM started with the
     * launcher's own koordlet heap (dist/src/bin/colocation), each is listed or refused, and the agent lives on.
     */
    @Test
    void answersUpToTheCapAreReadWithinTheKoordletsHeap(@TempDir Path dir) throws Exception {
        String launcher = Files.readString(Path.of("../dist/src/bin/colocation"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("KOORDLET_JVM_DEFAULTS=\"([^\"]+)\"").matcher(launcher);
        assertTrue(m.find(), "the launcher sets the koordlet's JVM options");
        List<String> heap = List.of(m.group(1).split(" "));
        assertTrue(heap.contains("-Xmx64m") && heap.contains("-XX:+ExitOnOutOfMemoryError"), heap.toString());
        Path token = token(dir, "t");
        String[][] cases = {
            {list(4_000, 4_000), "LISTED 4000"}, // about 1 MB: 4,000 containers running
            {list(30_000, 4_000), "LISTED 4000"}, // about 7.5 MB: 4,000 running among 30,000
            {list(12_000, 12_000), "more than " + CopilotClient.MAX_RUNNING_CONTAINERS + " running containers"}, // about 3 MB
            {list(38_000, 100), "answered more than " + CopilotClient.MAX_BODY + " bytes"}}; // about 8.4 MB
        try (FakeCopilot fake = new FakeCopilot()) {
            fake.on("/information", FakeCopilot.json(200, information(SELF, token)));
            for (String[] c : cases) {
                byte[] body = c[0].getBytes(StandardCharsets.UTF_8);
                fake.on("/v1/containers", ex -> {
                    ex.sendResponseHeaders(200, body.length);
                    try (OutputStream out = ex.getResponseBody()) {
                        out.write(body);
                    } catch (java.io.IOException e) {
                        // the client stopped reading: a refusal
                    }
                });
                List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
                command.addAll(heap);
                command.addAll(List.of("-cp", System.getProperty("java.class.path"), CopilotAtTheCap.class.getName(), fake.url()));
                Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
                String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(child.waitFor(180, TimeUnit.SECONDS), "the child ends (a loaded host is slow, not wrong)");
                assertEquals(0, child.exitValue(), (body.length >> 10) + " KiB: " + out);
                assertTrue(out.contains(c[1]), (body.length >> 10) + " KiB: " + out);
            }
        }
    }

    @Test
    void killRefusesAnIdThatIsNotYarnsWithoutAsking(@TempDir Path dir) throws Exception {
        Path token = token(dir, "t");
        try (FakeCopilot fake = new FakeCopilot()) {
            fake.on("/information", FakeCopilot.json(200, information(SELF, token)));
            fake.on("/v1/killContainer", FakeCopilot.json(200, "{}"));
            CopilotClient client = client(fake);
            assertTrue(client.killContainer("../../etc", "test").orElseThrow().contains("not a YARN container id"));
            assertTrue(fake.requests.isEmpty(), "nothing asked");
            assertEquals(Optional.empty(), client.killContainer(GOOD, "test"));
            assertTrue(fake.sawToken("t"));
        }
    }

    @Test
    void theCopilotUrlMustBeLoopbackHttp() {
        for (String url : List.of("http://10.0.0.1:8049", "https://127.0.0.1:8049", "http://example.com:8049", "http://127.0.0.1")) {
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> CopilotClient.create(url, "", Path.of("/proc"), List.of("yarn")));
            assertTrue(e.getMessage().contains("yarn.copilotUrl"), e.getMessage());
        }
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }
}
