package io.colocation.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad input stops {@code colocation simulate} before anything starts: one line naming the input, exit 1 or 2. */
class SimulateCommandTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--nodes 0                   | 2 | --nodes must be 1 to 20000, not 0",
            "--nodes 1000000             | 2 | --nodes must be 1 to 20000, not 1000000",
            "--nodes many                | 2 | --nodes must be a whole number, not 'many'",
            "--speed 0                   | 2 | --speed must be",
            "--speed 1e9                 | 2 | --speed must be",
            "--hours -3                  | 2 | --hours must be",
            "--online-mean 150           | 2 | --online-mean must be",
            "--policy greedy             | 2 | --policy must be partitioned, shared or off, not 'greedy'",
            "--nodes                     | 2 | --nodes needs a value",
            "--colour blue               | 2 | unknown argument '--colour'",
            "--trace /no/such/trace.csv  | 1 | /no/such/trace.csv",
            "--trace google2011          | 1 | google2011",
            "--sweep cpuReclaimThresholdPercent=60..80 | 2 | --sweep must be KEY=FROM..TO:STEP",
            "--sweep cpuReclaimThresholdPercent=60..80:5 --policy off | 2 | --sweep varies a colocation threshold",
            "--engine quantum            | 2 | --engine must be real or fast, not 'quantum'",
            "--engine fast --delays brokerPass | 2 | --delays: 'brokerPass' is not NAME=SECONDS",
            "--engine fast --delays warp=3 | 2 | --delays: 'warp=3' is not NAME=SECONDS with NAME one of [brokerPass",
            "--engine fast --delays brokerPass=soon | 2 | --delays: brokerPass must be a number of seconds, not 'soon'",
            "--engine fast --delays schedulerCycle=0 | 2 | --delays: schedulerCycle must be 0.1 to 3600 seconds, not 0",
            "--nodes 50 --delays brokerPass=5 | 2 | --delays sets the fast engine's delays",
    })
    void badInputIsOneLineNamingIt(String args, int exit, String message) {
        Run r = run(args.trim().split("\\s+"));
        assertEquals(exit, r.status, r.err);
        assertTrue(r.err.contains(message), r.err);
        assertTrue(r.err.startsWith("colocation simulate: "), r.err);
        assertTrue(!r.err.contains("\tat ") && !r.err.contains("Exception"), "no stack trace: " + r.err);
    }

    @org.junit.jupiter.api.Test
    void theEngineIsRealUpToThreeHundredNodesAndFastAbove() throws Exception {
        assertEquals(SimulateOptions.Engine.REAL, SimulateOptions.parse(new String[] {"--nodes", "300"}).engine());
        assertEquals(SimulateOptions.Engine.FAST, SimulateOptions.parse(new String[] {"--nodes", "301"}).engine());
        assertEquals(SimulateOptions.Engine.REAL, SimulateOptions.parse(new String[] {"--nodes", "5000", "--engine", "real"}).engine());
        SimulateOptions o = SimulateOptions.parse(new String[] {"--engine", "fast", "--delays", "brokerPass=5, nodeManagerHeartbeat=48,applicationMasterHeartbeat=48"});
        assertEquals(5, o.delays().brokerPass());
        assertEquals(48, o.delays().nodeManagerHeartbeat());
        assertEquals(48, o.delays().applicationMasterHeartbeat());
        assertEquals(1, o.delays().schedulerCycle());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "empty.csv     | ''                               | empty.csv",
            "header.csv    | 'time,cpu\n'                     | header.csv",
            "words.csv     | 'host,name\na,b\nc,d\n'          | header.csv",
            "negative.csv  | 'cpu\n5\n-4\n7\n'                | negative.csv",
    })
    void aTraceThatCannotBeUsedIsNamedAndNothingStarts(String file, String content, String named) throws Exception {
        Path csv = dir.resolve(file);
        Files.writeString(csv, content.replace("\\n", "\n"));
        Run r = run(new String[] {"--trace", csv.toString()});
        assertEquals(1, r.status, r.err);
        assertTrue(r.err.startsWith("colocation simulate: ") && r.err.contains(file), r.err);
        assertTrue(!r.err.contains("\tat "), r.err);
    }

    @Test
    void aReportFolderIsMadeWithItsParentsAndAFileInItsPlaceIsRefused() throws Exception {
        Path made = dir.resolve("runs/today");
        // the folder is made while the options are read; the bad trace then stops the run before anything starts
        Run r = run(new String[] {"--report", made.toString(), "--trace", dir.resolve("none.csv").toString()});
        assertEquals(1, r.status, r.err);
        assertTrue(Files.isDirectory(made), "made as mkdir -p would");

        Path file = Files.writeString(dir.resolve("summary.txt"), "not a folder");
        r = run(new String[] {"--report", file.toString()});
        assertEquals(2, r.status, r.err);
        assertTrue(r.err.startsWith("colocation simulate: --report: " + file + " is a file, not a folder"), r.err);

        r = run(new String[] {"--report", file.resolve("inside").toString()});
        assertEquals(2, r.status, r.err);
        assertTrue(r.err.startsWith("colocation simulate: --report: cannot make the folder " + file.resolve("inside")), r.err);
    }

    /** A user's slo-controller-config is checked as the broker and the koordlet check it, before anything starts. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "missing.yaml  | -                                                                    | does not exist",
            "garbage.yaml  | '{{{ not yaml'                                                       | not a Kubernetes manifest",
            "other.yaml    | 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\ndata: {a: b}\n' | holds no ConfigMap slo-controller-config",
            "reclaim.yaml  | 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: slo-controller-config}\ndata:\n  colocation-config: "
                    + "''{\"cpuReclaimThresholdPercent\": -5}''\n' | cpuReclaimThresholdPercent",
            "json.yaml     | 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: slo-controller-config}\ndata:\n  colocation-config: ''{}''\n"
                    + "  resource-threshold-config: ''{not json''\n' | resource-threshold-config",
    })
    void aSloConfigThatCannotBeUsedIsNamedAndNothingStarts(String file, String content, String message) throws Exception {
        Path yaml = dir.resolve(file);
        if (!content.equals("-")) {
            Files.writeString(yaml, content.replace("\\n", "\n"));
        }
        Run r = run(new String[] {"--slo-config", yaml.toString()});
        assertEquals(1, r.status, r.err);
        assertTrue(r.err.startsWith("colocation simulate: ") && r.err.contains(file) && r.err.contains(message), r.err);
        assertTrue(!r.err.contains("\tat ") && !r.err.contains("Exception"), "no stack trace: " + r.err);
    }

    private record Run(int status, String err) {
    }

    private static Run run(String[] args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SimulateCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, err.toString(StandardCharsets.UTF_8));
    }
}
