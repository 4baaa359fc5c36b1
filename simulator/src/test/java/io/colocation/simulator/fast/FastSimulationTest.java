package io.colocation.simulator.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.simulator.SimulateOptions;
import io.colocation.simulator.measure.RunReport;
import io.colocation.simulator.model.trace.OnlineLoad;
import io.colocation.simulator.model.trace.OnlineLoads;
import io.colocation.simulator.real.ClusterObjects;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The fast engine on the product's decision code: a run is the same for the same seed and inputs (its
 * {@code summary.json} but for wall times), holds the invariants the real engine's runs hold (no grant beyond Batch,
 * both sides using Batch, online work above the off baseline's CPU) and the policy off runs online work alone.
 */
class FastSimulationTest {
    private static final Path HOME = Path.of("..");

    private static ObjectNode run(String policy, long seed, double hours) throws Exception {
        SimulateOptions o = SimulateOptions.parse(new String[] {"--engine", "fast", "--nodes", "12", "--hours", Double.toString(hours),
                "--policy", policy, "--seed", Long.toString(seed), "--quiet"});
        OnlineLoad load = OnlineLoads.load(o.trace(), o.traceColumn(), o.traceStepSeconds(), o.nodes(), o.hours() * 3600,
                o.onlineMeanPercent() / 100, o.seed());
        ClusterObjects.SloConfig slo = ClusterObjects.shippedSloConfig(HOME.resolve("conf"));
        RunReport report = new FastSimulation(o, load, slo, HOME, new PrintStream(new ByteArrayOutputStream())).run();
        ObjectNode summary = report.summary().deepCopy();
        // wall times are the machine's, not the run's
        summary.remove("wallSeconds");
        summary.remove("dayWallSeconds");
        ObjectNode sim = (ObjectNode) summary.get("simulation");
        java.util.List<String> wall = new java.util.ArrayList<>();
        sim.fieldNames().forEachRemaining(f -> {
            if (f.startsWith("wallMillis.")) {
                wall.add(f);
            }
        });
        sim.remove(wall);
        return summary;
    }

    @Test
    void theSameSeedGivesTheSameRunAndAnotherSeedAnotherOne() throws Exception {
        ObjectNode first = run("partitioned", 3, 0.5);
        ObjectNode again = run("partitioned", 3, 0.5);
        assertEquals(first, again);
        assertNotEquals(first.get("cpu"), run("partitioned", 4, 0.5).get("cpu"));
    }

    @Test
    void partitionedLendsBatchToBothSidesWithoutOvercommit() throws Exception {
        ObjectNode on = run("partitioned", 1, 1);
        ObjectNode off = run("off", 1, 1);
        assertEquals("fast", on.get("engine").asText());
        assertEquals(0, on.get("overcommitSamples").asLong());
        assertTrue(on.get("samples").asLong() > 0);
        assertTrue(on.path("batch").path("kubernetesUsedMeanCores").asDouble() > 0, on.toString());
        assertTrue(on.path("batch").path("yarnUsedMeanCores").asDouble() > 0, on.toString());
        assertTrue(on.path("tasks").path("yarn").path("completed").asLong() > 0, on.toString());
        assertTrue(on.path("cpu").path("meanPercent").asDouble() > off.path("cpu").path("meanPercent").asDouble() + 10, on + " / " + off);
        assertEquals(0, off.path("tasks").path("kubernetes").path("submitted").asLong());
        assertEquals(0.0, off.path("batch").path("reclaimedMeanCores").asDouble());
        assertTrue(on.path("controlPlane").path("apiRequestsByKind").path("PUT nodemetrics/status").asLong() > 0, on.toString());
        assertTrue(on.path("simulation").path("delays").has("brokerPassSeconds"), on.toString());
    }
}
