package io.colocation.simulator.model.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.InvalidInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A user's hosts' load node by node, as a Prometheus export gives it: used as measured, every problem named. */
class PerNodeTraceTest {
    @TempDir
    Path dir;

    @Test
    void eachSimulatedNodeRunsAFileNodeAsMeasuredInterpolatedAndRepeated() throws Exception {
        // rows out of order, two timestamp formats, a gap (NaN), a second node in milliseconds
        Path csv = Files.writeString(dir.resolve("prometheus.csv"), """
                instance,timestamp,cpu,memory
                b-host,2026-11-28T00:10:00Z,0.50,0.40
                a-host,1795824000,0.20,0.30
                a-host,1795824600,0.40,0.50
                a-host,1795824300,NaN,0.90
                b-host,1795824000000,0.10,0.20
                """);
        OnlineLoad load = OnlineLoads.load(csv.toString(), null, 300, 3, 600, 0.2, 1);
        PerNodeTrace trace = assertInstanceOf(PerNodeTrace.class, load);
        assertEquals(List.of("a-host", "b-host"), trace.fileNodes());
        assertEquals("instance, timestamp, cpu, memory", trace.traceColumn());
        assertEquals(0.20 * 32, load.onlineCores(0, 0, 32), 1e-9);
        assertEquals(0.30 * 32, load.onlineCores(0, 300, 32), 1e-9, "the NaN row is a gap: interpolated across");
        assertEquals(0.40 * 32, load.onlineCores(0, 600, 32), 1e-9);
        assertEquals(0.30 * 32, load.onlineCores(1, 300, 32), 1e-9, "node 1 runs b-host, in phase with a-host");
        assertEquals(load.onlineCores(0, 123, 32), load.onlineCores(2, 123, 32), 0, "node 2 runs a-host again");
        // the file spans 600 s plus one step (a-host's, 600 s once its gap is skipped): it repeats after 1200 s
        assertEquals(load.onlineCores(0, 100, 32), load.onlineCores(0, 1300, 32), 1e-9);
        assertEquals(0.4 * 32, load.onlineCores(0, 900, 32), 1e-9, "past a node's last point, its last value");
        assertEquals(0.3 * 32, load.meanOnlineCores(0, 32), 0.5, "the mean over the run (0-600 s): about 0.3");
        double meanMemory = load.meanMemoryShare(0);
        assertEquals(0.40, meanMemory, 0.05);
        assertEquals(0.30 / meanMemory, load.memoryFactor(0, 0), 1e-9, "memory follows the file, relative to its mean");
        assertEquals(load.onlineCores(0, 100, 32), OnlineLoads.load(csv.toString(), null, 300, 3, 600, 0.5, 99).onlineCores(0, 100, 32),
                0, "as measured: neither the online mean nor the seed changes it");
    }

    @Test
    void aClusterCurveIsStillSpreadOverTheNodesAndMemoryIsLeftAlone() throws Exception {
        Path csv = Files.writeString(dir.resolve("curve.csv"), "time,load\n1,5\n2,7\n3,6\n");
        OnlineLoad load = OnlineLoads.load(csv.toString(), null, 300, 4, 3600, 0.2, 1);
        assertInstanceOf(NodeLoadCurves.class, load);
        assertEquals(1, load.memoryFactor(2, 1000), 0);
        assertTrue(Double.isNaN(load.meanMemoryShare(2)));
        assertFalse(PerNodeTrace.isPerNode(csv));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "percent.csv | 'node,timestamp,cpu\na,0,45\na,300,50\n'            | line 2, column cpu: 45 is not a ratio from 0 to 1 of the node's capacity (a percentage? divide it by 100)",
            "time.csv    | 'node,timestamp,cpu\na,yesterday,0.1\na,300,0.2\n'  | line 2, column timestamp: 'yesterday' is not a time",
            "one.csv     | 'node,timestamp,cpu\na,0,0.1\nb,0,0.1\nb,300,0.2\n' | node a has 1 point(s)",
            "twice.csv   | 'node,timestamp,cpu\na,0,0.1\na,0,0.2\n'            | lines 2 and 3: node a has two rows at the same timestamp",
            "nocpu.csv   | 'node,timestamp,load\na,0,0.1\na,300,0.2\n'         | no column cpu",
            "cells.csv   | 'node,timestamp,cpu\na,0\n'                         | line 2: 2 cells where the header has 3",
            "words.csv   | 'node,timestamp,cpu\na,0,lots\na,1,0.1\n'           | line 2, column cpu: 'lots' is not a number",
            "noname.csv  | 'node,timestamp,cpu\n,0,0.1\n'                      | line 2, column node: empty",
            "empty.csv   | 'node,timestamp,cpu\n'                              | no data rows",
    })
    void aBadPerNodeTraceIsOneLineNamingFileLineAndColumn(String file, String content, String message) throws Exception {
        Path csv = Files.writeString(dir.resolve(file), content);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> OnlineLoads.load(csv.toString(), null, 300, 1, 3600, 0.2, 1));
        assertTrue(e.getMessage().startsWith(csv.toString()) && e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void aColumnIsForClusterCurvesOnly() throws Exception {
        Path csv = Files.writeString(dir.resolve("nodes.csv"), "node,timestamp,cpu\na,0,0.1\na,300,0.2\n");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> OnlineLoads.load(csv.toString(), "cpu", 300, 1, 3600, 0.2, 1));
        assertTrue(e.getMessage().contains("--trace-column") && e.getMessage().contains("per-node trace"), e.getMessage());
    }
}
