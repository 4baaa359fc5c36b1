package io.colocation.simulator.model.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.MemoryCollectPolicy;
import io.colocation.simulator.model.trace.LoadTrace;
import io.colocation.simulator.model.trace.NodeLoadCurves;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A simulated host runs its tasks under the cgroup limits its koordlet wrote, and measures like a kernel would. */
class SimulatedHostTest {
    private static final long GI = 1L << 30;

    private static NodeLoadCurves flat(double meanFraction) throws Exception {
        LoadTrace trace = LoadTrace.parse("flat", new ByteArrayInputStream("cpu\n1\n1\n1\n".getBytes(StandardCharsets.UTF_8)), null, 300);
        return new NodeLoadCurves(trace, 1, 3600, meanFraction, 1);
    }

    @Test
    void aTaskRunsItsWorkAndLongerWhenThrottled() throws Exception {
        List<String> ended = new ArrayList<>();
        SimulatedCgroups cgroups = new SimulatedCgroups(Clock.systemUTC());
        SimulatedHost host = new SimulatedHost(0, "h", 32, 128 * GI, 0.5, 2 * GI, flat(0.2), 0, cgroups,
                (h, t, how) -> ended.add(t.id() + " " + how));
        host.start(new BatchTask("a", BatchTask.Side.KUBERNETES, "batch/a", 4000, 8 * GI, 4, 6 * GI, 400, false, 0, 0));
        host.advance(50_000);
        assertTrue(ended.isEmpty(), "200 of 400 core-seconds done");
        cgroups.set(cgroups.beDir(), CgroupWriter.Knob.CPU_QUOTA, "200000", "test: 2 cores");
        host.advance(100_000);
        assertTrue(ended.isEmpty(), "throttled to 2 cores: 100 more core-seconds");
        host.advance(150_000);
        assertEquals(List.of("a COMPLETED"), ended);
        assertNull(host.task("a"));
        SimulatedHost.Totals t = host.drain();
        assertEquals(200 + 100 + 100, t.kubernetes, 1e-6, "core-seconds the task ran");
        assertEquals(50 * 2 * 2, t.throttled, 1e-6, "throttled 2 cores for 100 s");
    }

    @Test
    void theKoordletMeasuresTheLastStepAndYarnApart() throws Exception {
        SimulatedCgroups cgroups = new SimulatedCgroups(Clock.systemUTC());
        NodeLoadCurves curves = flat(0.25);
        double online = curves.onlineCores(0, 5, 32);
        SimulatedHost host = new SimulatedHost(0, "h", 32, 128 * GI, 0.5, 2 * GI, curves, 0, cgroups, (h, t, how) -> { });
        host.addOnlinePod(new SimulatedHost.OnlinePod("web-uid", "online/web", 1.0, 10 * GI));
        host.start(new BatchTask("container_1_0001_01_000002", BatchTask.Side.YARN, "c2", 2000, 4 * GI, 1.5, 3 * GI, 1e9, false, 20, 0));
        host.advance(10_000);
        HostSample s = host.collect(new CollectTargets(List.of(new CollectTargets.PodTarget("web-uid", "online", "web", "Burstable",
                List.of())), false, List.of(), true, List.of(), MemoryCollectPolicy.USAGE_WITH_HOT_PAGE_CACHE), 10_000);
        assertEquals(online, s.pods().get("web-uid").cpuCores(), 1e-9, "the online pod's curve at the step's middle");
        assertEquals(8.0, online, 3, "about a quarter of 32 cores");
        assertEquals(1.5, s.yarn().cpuCores(), 1e-9);
        assertEquals(online + 1.5 + 0.5, s.node().cpuCores(), 1e-9);
        assertEquals(0.5, s.system().cpuCores(), 1e-6, "what no pod or YARN container explains is the system's");
        assertEquals((10 + 3 + 2) * GI, s.node().memoryBytes());
    }

    @Test
    void theKernelKillsBeTasksWhenMemoryRunsOut() throws Exception {
        List<String> ended = new ArrayList<>();
        SimulatedHost host = new SimulatedHost(0, "h", 32, 16 * GI, 0.5, 2 * GI, flat(0.2), 0, new SimulatedCgroups(Clock.systemUTC()),
                (h, t, how) -> ended.add(t.id() + " " + how));
        host.addOnlinePod(new SimulatedHost.OnlinePod("web", "online/web", 1.0, 6 * GI));
        host.start(new BatchTask("small", BatchTask.Side.KUBERNETES, "batch/small", 1000, 3 * GI, 1, 3 * GI, 1e9, false, 0, 0));
        host.start(new BatchTask("big", BatchTask.Side.KUBERNETES, "batch/big", 2000, 6 * GI, 1, 6 * GI, 1e9, false, 0, 0));
        host.advance(1000);
        assertEquals(List.of("big OOM_KILLED"), ended);
    }

    @Test
    void onlineWorkShortBesideKoordinatorsFloorIsToldApartFromALateSuppression() throws Exception {
        SimulatedCgroups cgroups = new SimulatedCgroups(Clock.systemUTC());
        SimulatedHost host = new SimulatedHost(0, "h", 32, 128 * GI, 0.5, 2 * GI, flat(0.99), 0, cgroups, (h, t, how) -> { });
        host.addOnlinePod(new SimulatedHost.OnlinePod("web", "online/web", 1.0, 10 * GI));
        host.start(new BatchTask("be", BatchTask.Side.YARN, "c2", 8000, 4 * GI, 8, 3 * GI, 1e9, false, 0, 0));
        cgroups.set(cgroups.beDir(), CgroupWriter.Knob.CPU_QUOTA, "200000", "test: the floor, 2 cores");
        for (long t = 10_000; t <= 300_000; t += 10_000) {
            host.advance(t);
        }
        SimulatedHost.Totals atFloor = host.drain();
        assertTrue(atFloor.onlineShort > 0, "online wants about 31.7 of the 29.5 cores the floor leaves");
        assertEquals(atFloor.onlineShort, atFloor.onlineShortAtFloor, 1e-9, "all of it beside the floor");
        assertEquals(0, atFloor.longestLateMillis, "nothing the suppression could have taken");

        cgroups.set(cgroups.beDir(), CgroupWriter.Knob.CPU_QUOTA, "600000", "test: 6 cores, above the floor");
        for (long t = 310_000; t <= 600_000; t += 10_000) {
            host.advance(t);
        }
        SimulatedHost.Totals late = host.drain();
        assertTrue(late.onlineShort > 0);
        assertEquals(0, late.onlineShortAtFloor, 1e-9);
        assertTrue(late.longestLateMillis >= 10_000, "the suppression late while the BE tier was above its floor: " + late.longestLateMillis);
    }
}
