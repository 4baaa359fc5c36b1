package io.colocation.simulator.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.koordlet.yarn.YarnContainers;
import io.colocation.simulator.model.host.BatchTask;
import io.colocation.simulator.model.host.SimulatedCgroups;
import io.colocation.simulator.model.host.SimulatedHost;
import io.colocation.simulator.model.trace.LoadTrace;
import io.colocation.simulator.model.trace.NodeLoadCurves;
import io.colocation.simulator.model.workload.WorkloadModel;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The YARN model's ApplicationMaster: it starts what it was given on its heartbeat, and a lost master ends its attempt as the RM ends one. */
class FastYarnTest {
    private static final long GI = 1L << 30;
    private final VirtualClock clock = new VirtualClock(0);
    private FastYarn yarn;
    private SimulatedHost host;

    @BeforeEach
    void oneNode() throws Exception {
        yarn = new FastYarn(clock, 1, 1000, 60_000, 10_000, 300_000);
        LoadTrace trace = LoadTrace.parse("flat", new ByteArrayInputStream("cpu\n1\n1\n".getBytes(StandardCharsets.UTF_8)), null, 300);
        host = new SimulatedHost(0, "h", 32, 128 * GI, 0.5, 2 * GI, new NodeLoadCurves(trace, 1, 3600, 0.1, 1), 0,
                new SimulatedCgroups(clock), (h, t, how) -> yarn.ended(h, t, how));
        yarn.register(host);
        WorkloadModel.TaskShape task = new WorkloadModel.TaskShape(1000, GI, 1, GI / 2, 1e9);
        yarn.submit(new WorkloadModel.YarnApplication(List.of(task, task)));
    }

    /** One simulated second: the masters' heartbeat, then the NodeManager's. */
    private void second() {
        clock.set(clock.millis() + 1000);
        yarn.mastersHeartbeat();
        yarn.heartbeat();
    }

    private List<String> running() {
        return host.yarnTasks().stream().map(t -> t.applicationMaster() ? "master" : "task").sorted().toList();
    }

    private String master() {
        return host.yarnTasks().stream().filter(BatchTask::applicationMaster).findFirst().orElseThrow().id();
    }

    private void kill(String containerId) {
        List<Runnable> outbox = new ArrayList<>();
        YarnContainers copilot = yarn.containers("h", outbox);
        assertTrue(copilot.kill(containerId, "test").isEmpty());
        outbox.forEach(Runnable::run);
    }

    @Test
    void aContainerStartsOnItsMastersNextHeartbeat() {
        second();
        assertEquals(List.of("master"), running(), "the RM starts the master itself");
        second();
        assertEquals(List.of("master"), running(), "the master registered and asked; one container given, not started yet");
        assertEquals(1, yarn.pendingTasks());
        second();
        assertEquals(List.of("master", "task"), running());
        second();
        assertEquals(List.of("master", "task", "task"), running());
    }

    @Test
    void aLostMasterEndsItsAttemptAndTheSecondLossTheApplication() {
        for (int i = 0; i < 4; i++) {
            second();
        }
        kill(master());
        assertEquals(List.of(), running(), "the RM kills the attempt's containers");
        assertEquals(2, yarn.pendingTasks(), "their tasks are asked again by the next attempt");
        for (int i = 0; i < 4; i++) {
            second();
        }
        assertEquals(List.of("master", "task", "task"), running(), "the second attempt runs them");
        kill(master());
        assertEquals(List.of(), running());
        assertEquals(0, yarn.pendingTasks(), "two attempts failed: the application failed");
        assertEquals(1, yarn.counters().applicationsFailed());
        second();
        assertEquals(List.of(), running());
    }
}
