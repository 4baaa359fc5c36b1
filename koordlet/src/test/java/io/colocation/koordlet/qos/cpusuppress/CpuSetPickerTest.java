package io.colocation.koordlet.qos.cpusuppress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.koordlet.qos.Processor;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Koordinator's own cases for {@code calculateBESuppressCPUSetPolicy} (cpu_suppress_test.go). */
class CpuSetPickerTest {

    /** {cpu, core, socket, node} rows. */
    private static List<Processor> cpus(int[]... rows) {
        List<Processor> out = new ArrayList<>();
        for (int[] r : rows) {
            out.add(new Processor(r[0], r[1], r[2], r[3]));
        }
        return out;
    }

    private static final List<Processor> SIXTEEN = cpus(new int[] {0, 0, 0, 0}, new int[] {1, 0, 0, 0}, new int[] {2, 1, 0, 0},
            new int[] {3, 1, 0, 0}, new int[] {4, 2, 1, 0}, new int[] {5, 2, 1, 0}, new int[] {6, 3, 1, 0}, new int[] {7, 3, 1, 0},
            new int[] {8, 4, 2, 1}, new int[] {9, 4, 2, 1}, new int[] {10, 5, 2, 1}, new int[] {11, 5, 2, 1},
            new int[] {12, 6, 3, 1}, new int[] {13, 6, 3, 1}, new int[] {14, 7, 3, 1}, new int[] {15, 7, 3, 1});

    static Stream<Arguments> cases() {
        List<Processor> shuffled = cpus(new int[] {12, 6, 3, 1}, new int[] {13, 6, 3, 1}, new int[] {14, 7, 3, 1},
                new int[] {2, 1, 0, 0}, new int[] {3, 1, 0, 0}, new int[] {11, 5, 2, 1}, new int[] {4, 2, 1, 0},
                new int[] {5, 2, 1, 0}, new int[] {8, 4, 2, 1}, new int[] {15, 7, 3, 1}, new int[] {0, 0, 0, 0},
                new int[] {1, 0, 0, 0}, new int[] {9, 4, 2, 1}, new int[] {10, 5, 2, 1}, new int[] {6, 3, 1, 0},
                new int[] {7, 3, 1, 0});
        return Stream.of(
                Arguments.of("empty input, nothing picked", 0, List.of(), List.of()),
                Arguments.of("scatter on NUMA nodes, no HT pairs", 3,
                        cpus(new int[] {0, 0, 0, 0}, new int[] {1, 1, 0, 0}, new int[] {2, 2, 1, 1}, new int[] {3, 3, 1, 1},
                                new int[] {4, 0, 0, 0}, new int[] {5, 1, 0, 0}, new int[] {6, 2, 1, 1}, new int[] {7, 3, 1, 1}),
                        List.of(0, 4, 2)),
                Arguments.of("stack on HTs", 3,
                        cpus(new int[] {0, 0, 0, 0}, new int[] {1, 0, 0, 0}, new int[] {2, 1, 0, 0}, new int[] {3, 1, 0, 0},
                                new int[] {4, 2, 1, 1}, new int[] {5, 2, 1, 1}, new int[] {6, 3, 1, 1}, new int[] {7, 3, 1, 1}),
                        List.of(0, 1, 4)),
                Arguments.of("scatter on sockets too", 5, SIXTEEN, List.of(0, 1, 4, 5, 8)),
                Arguments.of("regardless of the input order", 5, shuffled, List.of(0, 1, 4, 5, 8)),
                Arguments.of("more CPUs than the node has: nothing", 17, SIXTEEN, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void picksAsKoordinator(String name, int count, List<Processor> processors, List<Integer> want) {
        assertEquals(want, CpuSetPicker.pick(count, processors));
    }
}
