package io.colocation.koordlet.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.cgroup.CgroupLayout.Driver;
import io.colocation.koordlet.cgroup.CgroupLayout.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The collectors on captured hosts, for cgroup v1 and v2 and both drivers, with known figures. */
class HostUsageSourceTest {
    private static final long GI = 1L << 30;
    private static final long MI = 1L << 20;
    private static final String POD_A = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";
    private static final String POD_B = "6fa459ea-ee8a-3ca4-894e-db77e160355e";
    private static final String POD_GONE = "00000000-0000-0000-0000-000000000000";

    @TempDir
    Path tmp;

    static Stream<Arguments> layouts() {
        return Stream.of(Arguments.of(Version.V1, Driver.CGROUPFS), Arguments.of(Version.V1, Driver.SYSTEMD),
                Arguments.of(Version.V2, Driver.CGROUPFS), Arguments.of(Version.V2, Driver.SYSTEMD));
    }

    private static CollectTargets targets(MemoryCollectPolicy policy) {
        return targets(policy, true);
    }

    private static CollectTargets targets(MemoryCollectPolicy policy, boolean containers) {
        return new CollectTargets(List.of(
                new CollectTargets.PodTarget(POD_A, "web", "a", "Burstable", List.of(new CollectTargets.ContainerTarget("app", "containerd://abc123"))),
                new CollectTargets.PodTarget(POD_B, "batch", "b", "BestEffort", List.of()),
                new CollectTargets.PodTarget(POD_GONE, "web", "gone", "Guaranteed", List.of())),
                containers,
                List.of(new CollectTargets.HostAppTarget("nginx", "host-latency-sensitive/nginx")),
                true,
                List.of(new CollectTargets.YarnTarget("container_1_0001_01_000002", "kubepods/besteffort/hadoop-yarn/container_1_0001_01_000002", List.of(99)),
                        new CollectTargets.YarnTarget("container_1_0001_01_000003", "kubepods/besteffort/hadoop-yarn/container_1_0001_01_000003", List.of(4242, 4243))),
                policy);
    }

    private void host(CgroupTreeFixture f, long step) {
        CgroupLayout l = f.layout();
        f.node(1000 + 150 * step, 16 * GI, 8 * GI, 4 * GI, GI);
        String a = l.podDir("Burstable", POD_A);
        f.cgroup(a, 1_000_000_000L + 500_000_000L * step, GI, 512 * MI);
        f.cgroup(l.containerDir(a, "containerd://abc123"), 900_000_000L + 400_000_000L * step, 900 * MI, 0);
        f.cgroup(l.podDir("BestEffort", POD_B), 250_000_000L * step, 256 * MI, 0);
        f.cgroup("host-latency-sensitive/nginx", 100_000_000L * step, 64 * MI, 0);
        f.cgroup("kubepods/besteffort/hadoop-yarn/container_1_0001_01_000002", 200_000_000L * step, 512 * MI, 128 * MI);
        f.process(4242, 100 + 6 * step, 100 * MI);
        f.process(4243, 50 + 4 * step, 28 * MI);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("layouts")
    void measuresNodePodsContainersHostAppsAndYarn(Version version, Driver driver) {
        CgroupTreeFixture f = new CgroupTreeFixture(tmp, version, driver);
        assertEquals(version, CgroupLayout.detect(f.cgroupRoot(), "auto", "auto").version());
        assertEquals(driver, CgroupLayout.detect(f.cgroupRoot(), "auto", "auto").driver());
        AtomicLong clock = new AtomicLong();
        HostUsageSource source = new HostUsageSource(f.procRoot(), f.layout(), clock::get);

        host(f, 0);
        HostSample first = source.collect(targets(MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE), 1000);
        assertFalse(first.node().hasCpu(), "no CPU rate from one reading");
        assertEquals(8 * GI, first.node().memoryBytes());
        assertEquals(GI, first.pods().get(POD_A).memoryBytes());

        host(f, 1);
        clock.set(1_000_000_000L);
        HostSample s = source.collect(targets(MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE), 2000);
        assertEquals(1.5, s.node().cpuCores(), 1e-9);
        assertEquals(0.5, s.pods().get(POD_A).cpuCores(), 1e-9);
        assertEquals(GI, s.pods().get(POD_A).memoryBytes());
        assertEquals(0.4, s.containers().get(POD_A).get("app").cpuCores(), 1e-9);
        assertEquals(0.25, s.pods().get(POD_B).cpuCores(), 1e-9);
        assertFalse(s.pods().containsKey(POD_GONE), "a pod without a cgroup is missing, not 0");
        assertEquals(0.1, s.hostApps().get("nginx").cpuCores(), 1e-9);
        assertEquals(0.2, s.yarnContainers().get("container_1_0001_01_000002").cpuCores(), 1e-9);
        assertEquals(512 * MI, s.yarnContainers().get("container_1_0001_01_000002").memoryBytes());
        // Without a cgroup, from its processes: 10 ticks of 10 ms in one second, 100 + 28 MiB resident.
        assertEquals(0.1, s.yarnContainers().get("container_1_0001_01_000003").cpuCores(), 1e-9);
        assertEquals(128 * MI, s.yarnContainers().get("container_1_0001_01_000003").memoryBytes());
        assertEquals(0.3, s.yarn().cpuCores(), 1e-9);
        assertEquals(1.5 - 0.5 - 0.25 - 0.1 - 0.3, s.system().cpuCores(), 1e-9);
        assertEquals(8 * GI - GI - 256 * MI - 64 * MI - 640 * MI, s.system().memoryBytes());
        assertEquals(1.5, s.pressure().cpuSome(), 1e-9);
        assertEquals(2.0, s.pressure().ioFull(), 1e-9);
        assertTrue(source.problems().keySet().stream().anyMatch(p -> p.contains(POD_GONE.replace('-', driver == Driver.SYSTEMD ? '_' : '-'))),
                "the unreadable pod's path is named: " + source.problems());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("layouts")
    void containersOnlyInTheSamplesThatAskForThem(Version version, Driver driver) {
        CgroupTreeFixture f = new CgroupTreeFixture(tmp, version, driver);
        AtomicLong clock = new AtomicLong();
        HostUsageSource source = new HostUsageSource(f.procRoot(), f.layout(), clock::get);
        host(f, 0);
        source.collect(targets(MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE, true), 0);
        host(f, 1);
        clock.set(1_000_000_000L);
        HostSample without = source.collect(targets(MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE, false), 1000);
        assertTrue(without.containers().isEmpty());
        assertEquals(0.5, without.pods().get(POD_A).cpuCores(), 1e-9);
        host(f, 3);
        clock.set(3_000_000_000L);
        HostSample with = source.collect(targets(MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE, true), 3000);
        // The container's rate spans the three seconds since it was last read: 1.2 s of CPU / 3 s.
        assertEquals(0.4, with.containers().get(POD_A).get("app").cpuCores(), 1e-9);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("layouts")
    void memoryPolicies(Version version, Driver driver) {
        CgroupTreeFixture f = new CgroupTreeFixture(tmp, version, driver);
        host(f, 0);
        HostUsageSource source = new HostUsageSource(f.procRoot(), f.layout(), () -> 0);
        HostSample with = source.collect(targets(MemoryCollectPolicy.USAGE_WITH_PAGE_CACHE), 0);
        assertEquals(12 * GI, with.node().memoryBytes(), "MemTotal - MemFree");
        assertEquals(GI + 512 * MI, with.pods().get(POD_A).memoryBytes());
        HostSample hot = source.collect(targets(MemoryCollectPolicy.USAGE_WITH_HOT_PAGE_CACHE), 0);
        assertEquals(9 * GI, hot.node().memoryBytes(), "MemTotal - MemAvailable + Active(file)");
        assertEquals(GI + 256 * MI, hot.pods().get(POD_A).memoryBytes());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("layouts")
    void unreadableFilesAreMissingAndNamedNeverZero(Version version, Driver driver) throws Exception {
        CgroupTreeFixture f = new CgroupTreeFixture(tmp, version, driver);
        host(f, 0);
        Files.writeString(f.procRoot().resolve("meminfo"), "garbage\n");
        Files.delete(f.procRoot().resolve("pressure/io"));
        HostUsageSource source = new HostUsageSource(f.procRoot(), f.layout(), () -> 0);
        CollectTargets t = new CollectTargets(List.of(), false, List.of(), false, List.of(), MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE);
        HostSample s = source.collect(t, 0);
        assertFalse(s.node().hasMemory());
        assertFalse(s.yarn().hasCpu(), "copilot list unknown: YARN is missing, not 0");
        assertTrue(Double.isNaN(s.pressure().ioSome()));
        assertEquals(1.5, s.pressure().cpuSome(), 1e-9);
        assertTrue(source.problems().containsKey(f.procRoot().resolve("meminfo").toString()), source.problems().toString());
        assertTrue(source.problems().get(f.procRoot().resolve("pressure/io").toString()).contains("PSI"));
    }
}
