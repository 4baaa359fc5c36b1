package io.colocation.simulator.model.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Per-node curves from a trace: the same seed gives the same curves, and the cluster's online mean is the one asked for. */
class NodeLoadCurvesTest {
    @Test
    void sameSeedSameCurvesAnotherSeedOthers() throws Exception {
        LoadTrace trace = LoadTrace.load("alibaba2018", null, 300);
        NodeLoadCurves a = new NodeLoadCurves(trace, 50, 86_400, 0.2, 7);
        NodeLoadCurves b = new NodeLoadCurves(trace, 50, 86_400, 0.2, 7);
        NodeLoadCurves c = new NodeLoadCurves(trace, 50, 86_400, 0.2, 8);
        for (int node = 0; node < 50; node += 7) {
            for (double t = 0; t < 86_400; t += 3_333) {
                assertEquals(a.onlineCores(node, t, 32), b.onlineCores(node, t, 32), 0, "node " + node + " at " + t);
            }
        }
        assertNotEquals(a.onlineCores(3, 40_000, 32), c.onlineCores(3, 40_000, 32));
        NodeLoadCurves more = new NodeLoadCurves(trace, 80, 86_400, 0.2, 7);
        assertEquals(a.onlineCores(5, 12_345, 32) / a.scale(5), more.onlineCores(5, 12_345, 32) / more.scale(5), 1e-9,
                "a node's shape does not depend on how many nodes there are");
    }

    @Test
    void theClusterMeanIsTheOneAskedForAndNodesDiffer() throws Exception {
        LoadTrace trace = LoadTrace.load("alibaba2018", null, 300);
        int nodes = 200;
        NodeLoadCurves curves = new NodeLoadCurves(trace, nodes, 86_400, 0.2, 1);
        double sum = 0;
        int n = 0;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (int node = 0; node < nodes; node++) {
            double nodeSum = 0;
            int k = 0;
            for (double t = 0; t < 86_400; t += 600) {
                double v = curves.onlineCores(node, t, 32) / 32;
                sum += v;
                nodeSum += v;
                n++;
                k++;
            }
            min = Math.min(min, nodeSum / k);
            max = Math.max(max, nodeSum / k);
        }
        assertEquals(0.2, sum / n, 0.01, "the cluster's online mean");
        assertTrue(max / min > 2, "nodes have their own scale: " + min + " .. " + max);
    }

    @Test
    void theDayHasTheTracesShape() throws Exception {
        LoadTrace trace = LoadTrace.load("alibaba2018", null, 300);
        NodeLoadCurves curves = new NodeLoadCurves(trace, 100, 86_400, 0.2, 1);
        double[] hourly = new double[24];
        for (int h = 0; h < 24; h++) {
            for (int node = 0; node < 100; node++) {
                hourly[h] += curves.onlineCores(node, h * 3600 + 1800, 32) / 3200;
            }
        }
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (double v : hourly) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        assertTrue(hi / lo > 1.3, "a diurnal swing: " + lo + " .. " + hi);
    }
}
