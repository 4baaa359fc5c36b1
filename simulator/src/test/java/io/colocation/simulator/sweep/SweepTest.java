package io.colocation.simulator.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A sweep's values from its spec, and its frontier: no other value has more cluster CPU with fewer disruptions. */
class SweepTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theValuesAndTheConfigMapKeyThatHoldsIt() throws Exception {
        SweepSpec reclaim = SweepSpec.parse("cpuReclaimThresholdPercent=60..80:5");
        assertEquals(List.of(60L, 65L, 70L, 75L, 80L), reclaim.values());
        assertEquals("colocation-config", reclaim.configMapKey());
        assertEquals("cpuReclaimThresholdPercent=65", reclaim.run(65));
        SweepSpec window = SweepSpec.parse("cpuEvictTimeWindowSeconds=60..200:70");
        assertEquals(List.of(60L, 130L, 200L), window.values(), "TO is included when a step lands on it");
        assertEquals("resource-threshold-config", window.configMapKey());
        assertEquals(List.of(85L), SweepSpec.parse("cpuSuppressThresholdPercent=85..85:1").values());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "cpuReclaimThresholdPercent=60..80        | must be KEY=FROM..TO:STEP",
            "cpuReclaimThresholdPercent=6.5..80:5     | must be KEY=FROM..TO:STEP",
            "colour=1..2:1                            | colour is not a threshold the simulation sweeps; one of cpuReclaimThresholdPercent",
            "metricReportIntervalSeconds=60..120:30   | is not a threshold the simulation sweeps",
            "cpuReclaimThresholdPercent=80..60:5      | is an empty range",
            "cpuReclaimThresholdPercent=60..80:0      | is an empty range",
            "cpuReclaimThresholdPercent=0..100:1      | is 101 runs; at most 20",
    })
    void aSpecThatCannotBeRunIsOneLine(String spec, String message) {
        SweepSpec.Invalid e = assertThrows(SweepSpec.Invalid.class, () -> SweepSpec.parse(spec));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void theFrontierKeepsTheValuesNoOtherBeatsAndNeverOneThatOvercommitted(@TempDir Path dir) throws Exception {
        Sweep sweep = new Sweep(SweepSpec.parse("cpuReclaimThresholdPercent=60..80:5"));
        sweep.add(60, summary(50.0, 0.5, 0));
        sweep.add(65, summary(52.0, 0.4, 0)); // beats 60 on both
        sweep.add(70, summary(54.0, 2.0, 0));
        sweep.add(75, summary(53.0, 3.0, 0)); // beaten by 70
        sweep.add(80, summary(58.0, 0.1, 12)); // the best figures, from room the nodes did not have
        assertEquals(List.of(65L, 70L), sweep.frontier().stream().map(Sweep.Point::value).toList());
        String table = sweep.table();
        assertTrue(table.lines().anyMatch(l -> l.startsWith("65 ") && l.endsWith("*")), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("80 ") && !l.endsWith("*")), table);
        sweep.write(dir);
        List<String> csv = Files.readAllLines(dir.resolve("sweep.csv"));
        assertEquals("cpuReclaimThresholdPercent,cpuMeanPercent,evictionsAndPreemptionsPerThousandTasks,overcommitSamples,"
                + "onlineShortShareOfDemandPercent,frontier", csv.get(0));
        assertEquals("70,54.00,2.00,0,0.000,true", csv.get(3));
        assertEquals("80,58.00,0.10,12,0.000,false", csv.get(5));
        String svg = Files.readString(dir.resolve("sweep.svg"));
        assertTrue(svg.startsWith("<svg") && svg.contains("80 (overcommit)") && svg.contains("<path d=\"M"), svg);
    }

    private static ObjectNode summary(double cpu, double perThousand, long overcommit) {
        ObjectNode s = JSON.createObjectNode();
        s.putObject("cpu").put("meanPercent", cpu);
        s.putObject("perThousandBatchTasks").put("evictionsAndPreemptions", perThousand);
        s.put("overcommitSamples", overcommit);
        s.put("onlineShortShareOfDemandPercent", 0.0);
        return s;
    }
}
