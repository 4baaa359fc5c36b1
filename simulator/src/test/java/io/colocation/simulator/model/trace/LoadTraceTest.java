package io.colocation.simulator.model.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.InvalidInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Traces: the two that ship, any CSV with a header, and every way a file can be wrong, each named in one line. */
class LoadTraceTest {
    @TempDir
    Path dir;

    @Test
    void theShippedTracesReadTheirCpuColumn() throws Exception {
        LoadTrace a = LoadTrace.load("alibaba2018", null, 300);
        assertEquals("cpu_util_percent", a.column());
        assertEquals(2243, a.rows());
        LoadTrace z = LoadTrace.load("azure2019", null, 300);
        assertEquals("cpu_usage", z.column());
        assertEquals(8640, z.rows());
    }

    @Test
    void aCsvFileItsFirstNumericColumnOrTheNamedOneInterpolatedAndRepeated() throws Exception {
        Path f = Files.writeString(dir.resolve("load.csv"), "host,busy,other\nh1,10,1\nh2,20,2\nh3,40,3\n");
        LoadTrace t = LoadTrace.load(f.toString(), null, 60);
        assertEquals("busy", t.column());
        assertEquals(15, t.at(30), 1e-9);
        assertEquals(10, t.at(180), 1e-9, "repeated after its last row");
        assertEquals(2, LoadTrace.load(f.toString(), "other", 60).at(60), 1e-9);
    }

    @Test
    void badInputIsNamed() throws Exception {
        assertMessage("--trace: 'alibaba' is neither alibaba2018 nor azure2019 nor a CSV file", "alibaba", null);
        assertMessage(dir.resolve("missing.csv") + ": no such file", dir.resolve("missing.csv").toString(), null);
        Path empty = Files.writeString(dir.resolve("empty.csv"), "");
        assertMessage(empty + ": empty; a CSV file with a header row is expected", empty.toString(), null);
        Path ragged = Files.writeString(dir.resolve("ragged.csv"), "a,b\n1,2\n3\n");
        assertMessage(ragged + ": line 3: 1 cells where the header has 2", ragged.toString(), null);
        Path words = Files.writeString(dir.resolve("words.csv"), "a,b\nx,y\nz,w\n");
        assertMessage(words + ": no numeric column in the first data row; name one with --trace-column", words.toString(), null);
        Path nan = Files.writeString(dir.resolve("nan.csv"), "a\n1\nNaN\n");
        String range = " is not a number from 0 to 10^15 (any unit, only the curve's shape counts)";
        assertMessage(nan + ": line 3, column a: 'NaN'" + range, nan.toString(), null);
        Path negative = Files.writeString(dir.resolve("neg.csv"), "a\n1\n-1\n");
        assertMessage(negative + ": line 3, column a: '-1'" + range, negative.toString(), null);
        // the probe's 1e308: summed it overflows, and the load came out 0 everywhere
        Path huge = Files.writeString(dir.resolve("huge.csv"), "a\n1e308\n1e308\n");
        assertMessage(huge + ": line 2, column a: '1e308'" + range, huge.toString(), null);
        Path zeros = Files.writeString(dir.resolve("zeros.csv"), "a\n0\n0\n");
        assertMessage(zeros + ": column a is 0 everywhere; a load curve needs a shape", zeros.toString(), null);
        Path one = Files.writeString(dir.resolve("one.csv"), "a\n5\n");
        assertMessage(one + ": 1 data row(s); a curve needs at least 2", one.toString(), null);
        Path ok = Files.writeString(dir.resolve("ok.csv"), "a\n1\n2\n");
        assertMessage(ok + ": no column 'b' (columns: a)", ok.toString(), "b");
        assertTrue(assertThrows(InvalidInputException.class, () -> LoadTrace.load(ok.toString(), null, 0)).getMessage()
                .startsWith("--trace-step"));
        assertMessage(dir + ": not a regular file (a directory); give a CSV file", dir.toString(), null);
        assertMessage("/dev/zero: not a regular file (a device, a FIFO or a socket); give a CSV file", "/dev/zero", null);
        Path fifo = dir.resolve("fifo.csv");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        assertMessage(fifo + ": not a regular file (a device, a FIFO or a socket); give a CSV file", fifo.toString(), null);
    }

    private static void assertMessage(String expected, String trace, String column) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> LoadTrace.load(trace, column, 300));
        assertEquals(expected, e.getMessage());
    }
}
