package io.colocation.copilot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.copilot.api.CopilotApi;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The aux service on its own, driven through the calls a NodeManager makes: token, recovery, refusals. */
class YarnCopilotServiceTest {
    private static final ContainerId CONTAINER = ContainerId.fromString("container_1700000000000_0001_01_000002");

    @BeforeAll
    static void metricsSystem() {
        DefaultMetricsSystem.setMiniClusterMode(true);
    }

    private static YarnCopilotAuxService start(Path dir, Path recovery, String token) throws Exception {
        Configuration conf = new YarnConfiguration();
        conf.set(CopilotApi.CONF_PORT, "0");
        conf.set(YarnConfiguration.NM_LOCAL_DIRS, dir.resolve("local").toString());
        if (token != null) {
            Path tokenFile = dir.resolve("token");
            Files.writeString(tokenFile, token + "\n");
            conf.set(CopilotApi.CONF_TOKEN_FILE, tokenFile.toString());
        }
        YarnCopilotAuxService service = new YarnCopilotAuxService();
        if (recovery != null) {
            service.setRecoveryPath(new org.apache.hadoop.fs.Path(recovery.toUri()));
        }
        service.init(conf);
        service.start();
        return service;
    }

    private static String address(YarnCopilotAuxService service) {
        return StandardCharsets.UTF_8.decode(service.getMetaData()).toString();
    }

    @Test
    void tokenIsRequiredWhenConfigured(@TempDir Path dir) throws Exception {
        YarnCopilotAuxService service = start(dir, null, "s3cret");
        try {
            CopilotClient.Response anonymous = new CopilotClient(address(service), null).get(CopilotApi.CONTAINERS);
            assertEquals(401, anonymous.status());
            assertTrue(anonymous.body().get("error").asText().contains(CopilotApi.TOKEN_HEADER));
            assertEquals(401, new CopilotClient(address(service), "wrong").post(CopilotApi.KILL_CONTAINER, "{\"containerID\":\"x\"}").status());
            assertEquals(200, new CopilotClient(address(service), "s3cret").get(CopilotApi.CONTAINERS).status());
        } finally {
            service.stop();
        }
    }

    @Test
    void aTokenIsOnByDefaultGeneratedForTheOwnerOnlyNamedInInformationAndKeptAcrossRestarts(@TempDir Path dir) throws Exception {
        YarnCopilotAuxService first = start(dir, null, null);
        String token;
        Path file;
        try {
            CopilotClient anonymous = new CopilotClient(address(first), null);
            assertEquals(200, anonymous.get(CopilotApi.HEALTH).status(), "health needs no token");
            JsonNode info = anonymous.get(CopilotApi.INFORMATION).body();
            assertEquals("yarn", info.get("name").asText());
            assertEquals(ProcessHandle.current().pid(), info.get("pid").asLong(), "the NodeManager's pid (this JVM here)");
            file = Path.of(info.get("tokenFile").asText());
            assertEquals(dir.resolve("local").resolve(CopilotApi.DEFAULT_TOKEN_DIR).resolve("token"), file);
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
            token = Files.readString(file).trim();
            assertTrue(token.matches("[0-9a-f]{64}"), token);
            for (String path : new String[] {CopilotApi.CONTAINERS, CopilotApi.CONTAINER + "?containerID=" + CONTAINER}) {
                assertEquals(401, anonymous.get(path).status(), path + " without the token");
            }
            assertEquals(401, anonymous.post(CopilotApi.KILL_CONTAINER, "{\"containerID\":\"" + CONTAINER + "\"}").status());
            assertEquals(401, anonymous.post(CopilotApi.KILL_CONTAINERS_BY_RESOURCE, "{\"resources\":{\"cpu\":\"1\"}}").status());
            assertEquals(200, new CopilotClient(address(first), token).get(CopilotApi.CONTAINERS).status());
        } finally {
            first.stop();
        }
        YarnCopilotAuxService second = start(dir, null, null);
        try {
            assertEquals(token, Files.readString(file).trim(), "a restart keeps the token");
            assertEquals(200, new CopilotClient(address(second), token).get(CopilotApi.CONTAINERS).status());
        } finally {
            second.stop();
        }
    }

    @Test
    void withoutRequireTokenEveryLocalCallerIsServed(@TempDir Path dir) throws Exception {
        Configuration conf = new YarnConfiguration();
        conf.set(CopilotApi.CONF_PORT, "0");
        conf.set(YarnConfiguration.NM_LOCAL_DIRS, dir.resolve("local").toString());
        conf.setBoolean(CopilotApi.CONF_REQUIRE_TOKEN, false);
        YarnCopilotAuxService service = new YarnCopilotAuxService();
        service.init(conf);
        service.start();
        try {
            CopilotClient anonymous = new CopilotClient(address(service), null);
            assertEquals(200, anonymous.get(CopilotApi.CONTAINERS).status());
            assertTrue(anonymous.get(CopilotApi.INFORMATION).body().path("tokenFile").isNull());
            assertFalse(Files.exists(dir.resolve("local").resolve(CopilotApi.DEFAULT_TOKEN_DIR)), "no token made");
        } finally {
            service.stop();
        }
    }

    @Test
    void registrySurvivesARestartThroughTheRecoveryPath(@TempDir Path dir) throws Exception {
        Path recovery = dir.resolve("recovery");
        YarnCopilotAuxService first = start(dir, recovery, "s3cret");
        first.initializeContainer(new ContainerInitializationContext("alice", CONTAINER, Resource.newInstance(2048, 2), ContainerType.TASK));
        CopilotClient.Response listed = new CopilotClient(address(first), "s3cret").get(CopilotApi.CONTAINERS);
        assertEquals(CONTAINER.toString(), listed.body().get(0).get("containerID").asText());
        assertEquals("NEW", listed.body().get(0).get("state").asText());
        // a container without a process cannot be killed: nothing happens
        CopilotClient.Response refused = new CopilotClient(address(first), "s3cret").post(CopilotApi.KILL_CONTAINER,
                "{\"containerID\":\"" + CONTAINER + "\"}");
        assertEquals(409, refused.status());
        first.stop();

        YarnCopilotAuxService second = start(dir, recovery, "s3cret");
        try {
            JsonNode recovered = new CopilotClient(address(second), "s3cret").get(CopilotApi.CONTAINER + "?containerID=" + CONTAINER).body();
            assertEquals("alice", recovered.get("user").asText());
            assertEquals(2, recovered.get("vcores").asInt());
            assertEquals(2048, recovered.get("memoryMB").asLong());
            assertEquals("TASK", recovered.get("type").asText());
        } finally {
            second.stop();
        }
    }

    @Test
    void onlyLoopbackCallersAreServed() throws Exception {
        assertTrue(CopilotHttpServer.isAllowedCaller(InetAddress.getLoopbackAddress()));
        assertTrue(CopilotHttpServer.isAllowedCaller(InetAddress.getByName("::1")));
        assertFalse(CopilotHttpServer.isAllowedCaller(InetAddress.getByName("10.1.2.3")));
        assertFalse(CopilotHttpServer.isAllowedCaller(InetAddress.getByName("192.168.0.7")));
    }

    @Test
    void aTokenFileThatIsALinkADirectoryOrEmptyStopsTheServiceFromStarting(@TempDir Path dir) throws Exception {
        Path target = Files.writeString(dir.resolve("elsewhere"), "planted\n");
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        Path empty = Files.writeString(dir.resolve("empty"), "");
        Path directory = Files.createDirectory(dir.resolve("directory"));
        for (Path bad : new Path[] {link, empty, directory}) {
            Configuration conf = new YarnConfiguration();
            conf.set(YarnConfiguration.NM_LOCAL_DIRS, dir.resolve("local").toString());
            conf.set(CopilotApi.CONF_TOKEN_FILE, bad.toString());
            YarnCopilotAuxService service = new YarnCopilotAuxService();
            Exception e = assertThrows(Exception.class, () -> service.init(conf), bad.toString());
            String text = e + " " + e.getCause();
            assertTrue(text.contains(CopilotApi.CONF_TOKEN_FILE) && text.contains(bad.toString()), text);
        }
    }
}
