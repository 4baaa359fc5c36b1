package io.colocation.simulator.model.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How the simulated kernel shares CPU: the BE tier within its quota and cpuset, online work with what is left. */
class HostModelTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    static Stream<Arguments> cpu() {
        return Stream.of(
                // name, capacity, system, online, BE demands, quota, cpuset → online got, short, BE, throttled
                Arguments.of("room for all", 32, 0.5, 6, new double[] {4, 2}, INF, INF, 6, 0, 6, 0),
                Arguments.of("quota caps BE", 32, 0.5, 6, new double[] {8, 8}, 10, INF, 6, 0, 10, 6),
                Arguments.of("cpuset caps BE", 32, 0.5, 6, new double[] {8, 8}, INF, 12, 6, 0, 12, 4),
                Arguments.of("the tighter of quota and cpuset", 32, 0.5, 6, new double[] {20}, 9, 12, 6, 0, 9, 11),
                Arguments.of("a late suppression: online short", 32, 0.5, 20, new double[] {16}, 16, INF, 15.5, 4.5, 16, 0),
                Arguments.of("online above the host on its own", 8, 0.5, 10, new double[] {}, INF, INF, 7.5, 2.5, 0, 0),
                Arguments.of("the system first", 4, 5, 1, new double[] {1}, INF, INF, 0, 1, 0, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cpu")
    void sharesCpu(String name, double capacity, double system, double online, double[] be, double quota, double cpuset, double onlineGot,
            double onlineShort, double beGot, double throttled) {
        HostModel.CpuShares s = HostModel.shareCpu(capacity, system, online, be, quota, cpuset);
        assertEquals(onlineGot, s.online(), 1e-9, "online");
        assertEquals(onlineShort, s.onlineShort(), 1e-9, "online short");
        assertEquals(beGot, s.be(), 1e-9, "BE");
        assertEquals(throttled, s.beThrottled(), 1e-9, "BE throttled");
        double sum = 0;
        for (double t : s.beTasks()) {
            sum += t;
        }
        assertEquals(beGot, sum, 1e-9, "the BE tasks share the BE tier's CPU");
        assertEquals(Math.min(capacity, system), s.system(), 1e-9);
    }

    @Test
    void beTasksShareInProportionToTheirDemand() {
        HostModel.CpuShares s = HostModel.shareCpu(32, 0, 0, new double[] {6, 2}, 4, INF);
        assertArrayEquals(new double[] {3, 1}, s.beTasks(), 1e-9);
    }

    @Test
    void theOomKillerEndsTheLargestBeTasksUntilTheRestFits() {
        assertArrayEquals(new int[0], HostModel.oomVictims(100, 60, new long[] {20, 20}));
        assertArrayEquals(new int[] {1}, HostModel.oomVictims(100, 60, new long[] {10, 35, 20}));
        assertArrayEquals(new int[] {1, 2}, HostModel.oomVictims(100, 90, new long[] {5, 30, 20}));
    }
}
