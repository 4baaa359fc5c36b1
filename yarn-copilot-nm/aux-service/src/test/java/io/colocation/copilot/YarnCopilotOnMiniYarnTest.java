package io.colocation.copilot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.copilot.api.CopilotApi;
import io.colocation.testsupport.yarn.JobResult;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.yarn.SleepJobs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.ContainerManagerImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copilot inside a real NodeManager (MiniYARNCluster, installed by configuration only), watching
 * real MapReduce containers: listing them with their process trees, killing one, killing by resource.
 */
class YarnCopilotOnMiniYarnTest {
    private static MiniYarn yarn;
    private static CopilotClient copilot;

    @BeforeAll
    static void start() throws Exception {
        yarn = MiniYarn.builder("copilot").nodeManagers(1).nodeSize(6144, 8)
                .auxService(CopilotApi.AUX_SERVICE_NAME, YarnCopilotAuxService.class)
                .set(CopilotApi.CONF_PORT, "0")
                .set(CopilotApi.CONF_REFRESH_MS, "200")
                .set(CopilotApi.CONF_KILL_GRACE_MS, "3000")
                .start();
        ContainerManagerImpl cm = (ContainerManagerImpl) yarn.cluster().getNodeManager(0).getNMContext().getContainerManager();
        String address = StandardCharsets.UTF_8.decode(cm.getAuxServiceMetaData().get(CopilotApi.AUX_SERVICE_NAME)).toString();
        copilot = CopilotClient.withTokenOf(address);
    }

    @AfterAll
    static void stop() {
        if (yarn != null) {
            yarn.close();
        }
    }

    /** Waits until the job's AM and {@code tasks} map containers run, and returns them. */
    private static List<JsonNode> awaitRunning(String appId, int tasks) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            List<JsonNode> running = new ArrayList<>();
            for (JsonNode c : copilot.get(CopilotApi.CONTAINERS).body()) {
                if (c.get("applicationID").asText().equals(appId) && c.get("state").asText().equals("RUNNING")) {
                    running.add(c);
                }
            }
            if (running.stream().filter(c -> c.get("type").asText().equals("TASK")).count() >= tasks) {
                return running;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the job's containers did not all run within 90 s: " + copilot.get(CopilotApi.CONTAINERS + "?all=true").body());
    }

    private static String appId(Job job) {
        return SleepJobs.applicationOf(job).toString();
    }

    @Test
    void listsRunningContainersWithTheirProcessTreesAndResources(@TempDir Path work) throws Exception {
        Job job = SleepJobs.submit(yarn.config(), 2, 10_000, work);
        List<JsonNode> running = awaitRunning(appId(job), 2);
        JsonNode am = running.stream().filter(c -> c.get("type").asText().equals("APPLICATION_MASTER")).findFirst().orElseThrow();
        assertEquals(512, am.get("memoryMB").asLong());
        assertEquals(1, am.get("vcores").asInt());
        for (JsonNode c : running) {
            String id = c.get("containerID").asText();
            assertEquals("yarn", c.get("namespace").asText());
            assertEquals("kubepods/besteffort/hadoop-yarn/" + id, c.get("cgroupDir").asText());
            assertEquals(Long.toString(c.get("memoryMB").asLong() * 1024 * 1024), c.get("resources").get("requests").get("memory").asText());
            long root = c.get("pid").asLong();
            ProcessHandle rootProcess = ProcessHandle.of(root).orElseThrow(() -> new AssertionError("pid " + root + " of " + id + " is not running"));
            Set<Long> tree = rootProcess.descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
            tree.add(root);
            List<Long> pids = new ArrayList<>();
            c.get("pids").forEach(p -> pids.add(p.asLong()));
            assertEquals(root, pids.get(0), "the root process comes first");
            for (long pid : pids) {
                // The listing is a snapshot of /proc taken before the tree above: a task's short-lived children
                // (Hadoop's Shell runs chmod and friends without native IO) may have ended since. A listed pid
                // still alive must be in the tree, or in the root's session (a double-forked child).
                boolean inTree = tree.contains(pid) || sessionOf(pid) == root;
                assertTrue(inTree || ProcessHandle.of(pid).isEmpty(),
                        "pid " + pid + " listed for " + id + " is alive but not in its process tree " + tree);
            }
            // launch_container.sh execs the JVM, so the tree may be that one process; it names its own container
            assertTrue(pids.stream().map(ProcessHandle::of).flatMap(java.util.Optional::stream)
                    .anyMatch(h -> h.info().arguments().map(a -> String.join(" ", a).contains(id)).orElse(false)),
                    "no process of " + pids + " names " + id);
        }
        JobResult result = JobResult.await(yarn, job, Duration.ofMinutes(2));
        assertTrue(result.succeeded(), result.toString());
    }

    @Test
    void killContainerEndsTheWholeTreeAndTheApplicationMasterSeesIt(@TempDir Path work) throws Exception {
        Job job = SleepJobs.submit(yarn.config(), 1, 14_000, work);
        JsonNode task = awaitRunning(appId(job), 1).stream().filter(c -> c.get("type").asText().equals("TASK")).findFirst().orElseThrow();
        String id = task.get("containerID").asText();
        List<Long> pids = new ArrayList<>();
        task.get("pids").forEach(p -> pids.add(p.asLong()));
        assertEquals(Optional.empty(), new NodeManagerExitCodes().recorded(id), "a running container has no recorded exit code");

        CopilotClient.Response killed = copilot.post(CopilotApi.KILL_CONTAINER, "{\"containerID\":\"" + id + "\",\"reason\":\"test\"}");
        assertEquals(200, killed.status(), killed.body().toString());
        assertEquals(id, killed.body().get("items").get(0).get("containerID").asText());
        assertTrue(killed.body().get("reason").asText().contains("killContainer requested by"), killed.body().toString());
        for (long pid : pids) {
            assertFalse(RunningProcess.running(pid), "pid " + pid + " survived the kill");
        }
        // the NodeManager sees the container exit
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonNode after;
        do {
            Thread.sleep(200);
            after = copilot.get(CopilotApi.CONTAINER + "?containerID=" + id).body();
        } while (!(after.get("state").asText().equals("DONE") && after.hasNonNull("exitStatus")) && System.nanoTime() < deadline);
        assertEquals("DONE", after.get("state").asText(), after.toString());
        assertNotNull(after.get("exitStatus"));
        assertTrue(after.get("exitStatus").asInt() != 0, "a killed container exits non-zero: " + after);
        // what the NodeManager recorded, read as the copilot reads it when the exit-code file is already gone
        assertEquals(Optional.of(after.get("exitStatus").asInt()), new NodeManagerExitCodes().recorded(id), after.toString());
        // the ApplicationMaster sees the attempt fail, reruns it, and the job still succeeds
        JobResult result = JobResult.await(yarn, job, Duration.ofMinutes(2));
        assertTrue(result.succeeded(), result.toString());
        assertTrue(result.failedMaps() + result.killedMaps() >= 1, "the AM saw the killed attempt: " + result);
    }

    @Test
    void killContainersByResourceFreesEnoughWithTheFewestNewestTasks(@TempDir Path work) throws Exception {
        Job job = SleepJobs.submit(yarn.config(), 3, 14_000, work);
        List<JsonNode> running = awaitRunning(appId(job), 3);
        // each map task holds 1 vcore and 256 MiB: 300 MiB needs two of them, never the AM
        CopilotClient.Response r = copilot.post(CopilotApi.KILL_CONTAINERS_BY_RESOURCE, "{\"resources\":{\"cpu\":\"1\",\"memory\":\"300Mi\"}}");
        assertEquals(200, r.status(), r.body().toString());
        JsonNode items = r.body().get("items");
        assertEquals(2, items.size(), r.body().toString());
        long newestStart = running.stream().filter(c -> c.get("type").asText().equals("TASK")).mapToLong(c -> c.get("startTime").asLong()).max().orElseThrow();
        for (JsonNode victim : items) {
            assertEquals("TASK", victim.get("type").asText());
        }
        assertEquals(newestStart, Math.max(items.get(0).get("startTime").asLong(), items.get(1).get("startTime").asLong()),
                "the newest task is among the victims");
        assertEquals(512, r.body().get("freedMemoryMB").asLong());
        JsonNode am = running.stream().filter(c -> c.get("type").asText().equals("APPLICATION_MASTER")).findFirst().orElseThrow();
        assertEquals("RUNNING", copilot.get(CopilotApi.CONTAINER + "?containerID=" + am.get("containerID").asText()).body().get("state").asText());
        JobResult result = JobResult.await(yarn, job, Duration.ofMinutes(2));
        assertTrue(result.succeeded(), result.toString());
    }

    @Test
    void badRequestsGetClearAnswersAndKillNothing() throws Exception {
        int before = copilot.get(CopilotApi.CONTAINERS + "?all=true").body().size();
        CopilotClient.Response unknown = copilot.post(CopilotApi.KILL_CONTAINER, "{\"containerID\":\"container_1_0001_01_000009\"}");
        assertEquals(404, unknown.status());
        assertTrue(unknown.body().get("error").asText().contains("nothing killed"), unknown.body().toString());
        assertEquals(400, copilot.post(CopilotApi.KILL_CONTAINER, "{not json").status());
        assertEquals(400, copilot.post(CopilotApi.KILL_CONTAINER, "{}").status());
        assertEquals(400, copilot.post(CopilotApi.KILL_CONTAINERS_BY_RESOURCE, "{\"resources\":{\"memory\":\"-1Gi\"}}").status());
        assertEquals(400, copilot.post(CopilotApi.KILL_CONTAINERS_BY_RESOURCE, "{\"resources\":{}}").status());
        assertEquals(405, copilot.get(CopilotApi.KILL_CONTAINER).status());
        assertEquals(400, copilot.get(CopilotApi.CONTAINER).status());
        assertEquals(404, copilot.get("/v2/nothing").status());
        assertEquals("ok", copilot.get(CopilotApi.HEALTH).body().asText());
        assertEquals("yarn", copilot.get(CopilotApi.INFORMATION).body().get("name").asText());
        assertEquals(before, copilot.get(CopilotApi.CONTAINERS + "?all=true").body().size());
    }

    /** The session id of a process (field 6 of /proc/PID/stat), -1 when it is gone. */
    private static long sessionOf(long pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            return Long.parseLong(fields[3]);
        } catch (java.io.IOException | RuntimeException gone) {
            return -1;
        }
    }
}
