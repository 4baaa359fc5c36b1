package io.colocation.copilot;

import static io.colocation.testsupport.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.Quantities;
import io.colocation.copilot.api.CopilotApi;
import io.colocation.helpers.concurrent.Daemons;
import io.colocation.localclusters.LoopbackPorts;
import io.colocation.localclusters.yarn.MapReduceClasspath;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.yarn.SleepJobs;
import io.colocation.testsupport.yarn.JobResult;
import io.colocation.testsupport.yarn.NodeManagerProcess;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copilot in a real NodeManager process with work-preserving recovery
 * ({@code yarn.nodemanager.recovery.enabled}, supervised): the NodeManager is stopped with SIGTERM while a
 * MapReduce job runs on it and started again on the same recovery directory. The containers keep running
 * through it, and the restarted copilot still lists them with their pids, follows them to their exit
 * status, and the job completes.
 */
class YarnCopilotAcrossNodeManagerRestartTest {
    @TempDir
    static Path work;
    private static MiniYarn yarn;
    private static NodeManagerProcess nodeManager;
    private static CopilotClient copilot;

    @BeforeAll
    static void start() throws Exception {
        yarn = MiniYarn.builder("copilot-nm-restart").nodeManagers(0).nodeSize(4096, 4).start();
        int copilotPort = LoopbackPorts.pick();
        nodeManager = NodeManagerProcess.create(yarn.config(), work.resolve("nm"),
                // the jars docs/hadoop.md has an admin drop into the NodeManager's classpath
                List.of(codeOf(YarnCopilotAuxService.class), codeOf(CopilotApi.class), codeOf(Quantities.class), codeOf(Daemons.class)),
                // MapReduce's shuffle (every MapReduce task container asks for it) and the copilot.
                Map.of("yarn.nodemanager.aux-services", MapReduceClasspath.SHUFFLE_SERVICE + "," + CopilotApi.AUX_SERVICE_NAME,
                        "yarn.nodemanager.aux-services." + CopilotApi.AUX_SERVICE_NAME + ".class",
                        YarnCopilotAuxService.class.getName(),
                        CopilotApi.CONF_PORT, Integer.toString(copilotPort),
                        CopilotApi.CONF_REFRESH_MS, "200"));
        nodeManager.start();
        awaitRegistered();
        copilot = CopilotClient.withTokenOf("127.0.0.1:" + copilotPort);
    }

    @AfterAll
    static void stop() {
        if (nodeManager != null) {
            nodeManager.close();
        }
        if (yarn != null) {
            yarn.close();
        }
    }

    @Test
    void containersThatOutliveANodeManagerRestartAreStillListedWithTheirPids(@TempDir Path jobDir) throws Exception {
        Job job = SleepJobs.submit(yarn.config(), 2, 25_000, jobDir);
        String app = SleepJobs.applicationOf(job).toString();
        Map<String, Integer> before = new HashMap<>();
        within(Duration.ofSeconds(90), "the job's three containers run", () -> {
            before.clear();
            before.putAll(runningPids(app));
            return before.size() == 3; // the ApplicationMaster and two maps
        });

        nodeManager.stop();
        for (int pid : before.values()) {
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    "container process " + pid + " survives the NodeManager's stop (supervised recovery)");
        }
        nodeManager.start();
        awaitRegistered();

        // The restarted copilot lists the same containers, running, with the same root pids.
        within(Duration.ofSeconds(30), "the restarted copilot lists " + before, () -> before.equals(runningPids(app)));

        JobResult result = JobResult.await(yarn, job, Duration.ofMinutes(3));
        assertTrue(result.succeeded(), "the job completes across the NodeManager restart: " + result);
        // Containers that ended after the restart are followed to their exit status.
        List<String> tasks = new ArrayList<>(before.keySet());
        until(Duration.ofSeconds(30), () -> {
            JsonNode all = allContainers();
            for (String id : tasks) {
                JsonNode c = find(all, id);
                if (c == null || c.get("exitStatus").isNull()) {
                    return false;
                }
            }
            return true;
        });
        JsonNode all = allContainers();
        for (String id : tasks) {
            if (!find(all, id).get("type").asText().equals("APPLICATION_MASTER")) {
                assertEquals(0, find(all, id).get("exitStatus").asInt(), "map container " + id + " exit status");
            }
        }
    }

    private static JsonNode allContainers() {
        try {
            return copilot.get(CopilotApi.CONTAINERS + "?all=true").body();
        } catch (Exception e) {
            throw new IllegalStateException("the copilot does not answer", e);
        }
    }

    /** Running containers of {@code app} with a known pid, by container id. */
    private static Map<String, Integer> runningPids(String app) {
        Map<String, Integer> pids = new HashMap<>();
        try {
            for (JsonNode c : copilot.get(CopilotApi.CONTAINERS).body()) {
                if (c.get("applicationID").asText().equals(app) && c.get("state").asText().equals("RUNNING")
                        && c.hasNonNull("pid")) {
                    pids.put(c.get("containerID").asText(), c.get("pid").asInt());
                }
            }
        } catch (Exception copilotRestarting) {
            return Map.of();
        }
        return pids;
    }

    private static JsonNode find(JsonNode containers, String id) {
        for (JsonNode c : containers) {
            if (c.get("containerID").asText().equals(id)) {
                return c;
            }
        }
        return null;
    }

    private static void awaitRegistered() throws Exception {
        within(Duration.ofSeconds(90), "the NodeManager registers", () -> {
            try {
                return yarn.runningNodes().stream().anyMatch(n -> n.getNodeId().getPort() == nodeManager.port());
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** {@link io.colocation.testsupport.Await#until}, failing with what the NodeManager logged last. */
    private static void within(Duration timeout, String what, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        try {
            until(timeout, condition);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("not within " + timeout.toSeconds() + " s: " + what + "; the copilot lists "
                    + allContainersOrProblem() + "; the NodeManager logged last:\n" + nodeManager.logTail(60), e);
        }
    }

    private static String allContainersOrProblem() {
        try {
            return allContainers().toString();
        } catch (IllegalStateException e) {
            return "(" + e.getCause() + ")";
        }
    }

    /** The jar or class folder {@code type} was loaded from, for the NodeManager's classpath. */
    private static Path codeOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
