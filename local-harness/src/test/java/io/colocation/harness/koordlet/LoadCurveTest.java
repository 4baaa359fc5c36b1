package io.colocation.harness.koordlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.InvalidInputException;
import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.MemoryCollectPolicy;
import io.colocation.koordlet.collect.Usage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A simulated node's load file: points interpolated and repeated, the node's sum, and bad files refused by field. */
class LoadCurveTest {
    private static final long GI = 1L << 30;

    @TempDir
    Path tmp;

    private LoadCurve read(String yaml) throws Exception {
        Path file = tmp.resolve("load.yaml");
        Files.writeString(file, yaml);
        return LoadCurve.read(file);
    }

    @Test
    void interpolatesBetweenPointsHoldsOutsideThemAndRepeatsEveryPeriod() throws Exception {
        LoadCurve curve = read("""
                period: 24h
                pods:
                  shop/web-0: [{at: 1h, cpu: 2, memory: 4Gi}, {at: 13h, cpu: 6, memory: 6Gi}]
                """);
        LoadCurve.Curve web = curve.pods().get("shop/web-0");
        assertEquals(new Usage(2, 4 * GI), web.at(0), "held at the first point before it");
        assertEquals(new Usage(4, 5 * GI), web.at(7 * 3_600_000L), "halfway");
        assertEquals(new Usage(6, 6 * GI), web.at(20 * 3_600_000L), "held at the last point after it");
        assertEquals(7 * 3_600_000L, curve.fold(31 * 3_600_000L), "the day repeats");
        assertEquals(31 * 3_600_000L, read("pods: {}").fold(31 * 3_600_000L), "without a period time runs on");
    }

    @Test
    void theNodeIsTheSumOfTheSystemItsListedPodsTheDefaultPodAndTheCopilotsContainers() throws Exception {
        LoadCurve curve = read("""
                system: [{at: 0s, cpu: 500m, memory: 1Gi}]
                defaultPod: [{at: 0s, cpu: 100m, memory: 128Mi}]
                pods:
                  shop/web-0: [{at: 0s, cpu: 2, memory: 4Gi}]
                defaultYarnContainer: [{at: 0s, cpu: 1, memory: 2Gi}]
                """);
        LoadCurveUsageSource source = new LoadCurveUsageSource(tmp.resolve("load.yaml"), curve, 0);
        CollectTargets targets = new CollectTargets(List.of(pod("uid-web", "shop", "web-0"), pod("uid-other", "shop", "other")), false,
                List.of(), true, List.of(new CollectTargets.YarnTarget("container_1_0001_01_000002", "", List.of())),
                MemoryCollectPolicy.USAGE_WITHOUT_PAGE_CACHE);
        HostSample sample = source.collect(targets, 1000);
        assertEquals(new Usage(2, 4 * GI), sample.pods().get("uid-web"));
        assertEquals(new Usage(0.1, 128L << 20), sample.pods().get("uid-other"));
        assertEquals(new Usage(1, 2 * GI), sample.yarn());
        assertEquals(3.6, sample.node().cpuCores(), 1e-9);
        assertEquals(7 * GI + (128L << 20), sample.node().memoryBytes());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "pods: {shop/web-0: [{at: 0s, cpu: -1, memory: 1Gi}]}         | pods.shop/web-0[0].cpu: negative quantity \"-1\"",
        "pods: {shop/web-0: [{at: 0s, cpu: 1, memory: -1Gi}]}         | pods.shop/web-0[0].memory: negative quantity \"-1Gi\"",
        "pods: {shop/web-0: [{at: 1m, cpu: 1, memory: 1Gi}, {at: 1m, cpu: 1, memory: 1Gi}]} | pods.shop/web-0[1].at: points must be in increasing time",
        "system: [{at: 0s, cpu: 1}]                                    | system[0]: a point needs at, cpu and memory",
        "system: []                                                    | system: expected a non-empty list of points",
        "period: a day                                                 | period",
        "pod: {}                                                       | unknown field 'pod'",
        "pods: [1, 2]                                                  | pods: expected a map of name → points",
        "system: [{at: 0s, cpu: lots, memory: 1Gi}]                    | system[0].cpu",
    })
    void aBadFileIsRefusedNamingTheFileAndTheField(String yaml, String expected) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> read(yaml.trim()));
        assertTrue(e.getMessage().startsWith(tmp.resolve("load.yaml").toString()) && e.getMessage().contains(expected.trim()), e.getMessage());
    }

    private static CollectTargets.PodTarget pod(String uid, String namespace, String name) {
        return new CollectTargets.PodTarget(uid, namespace, name, "Burstable", List.of());
    }
}
