package io.colocation.koordlet.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.PriorityClass;
import io.colocation.koordlet.cache.MetricCache;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.Usage;
import io.colocation.model.Resources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Training from the metric cache, and checkpoints across a restart, corrupt or not. */
class PeakPredictServerTest {
    private static final long GI = 1L << 30;
    private static final PeakPredictServer.Settings SETTINGS = new PeakPredictServer.Settings(Duration.ofHours(12), Duration.ofHours(24),
            Duration.ofMinutes(1), Duration.ofMinutes(30), Duration.ofMinutes(10), 12);

    @TempDir
    Path dir;

    private static MetricCache cacheWithAMinute(Instant end) {
        MetricCache cache = new MetricCache(1, 1800, 600);
        for (int i = 59; i >= 0; i--) {
            Map<String, Usage> pods = new HashMap<>();
            pods.put("web", new Usage(2 + (i % 10) / 10.0, 4 * GI));
            cache.append(new HostSample(end.minusSeconds(i).toEpochMilli(), new Usage(3.5, 7 * GI), pods, Map.of(), Map.of(), Map.of(),
                    new Usage(0, 0), HostSample.Pressure.NONE));
        }
        return cache;
    }

    @Test
    void trainsPodsClassesSystemAndNodeFromTheLastInterval() {
        Instant now = Instant.parse("2026-11-22T12:00:00Z");
        PeakPredictServer server = new PeakPredictServer(SETTINGS, new PredictionCheckpointStore(dir));
        server.train(cacheWithAMinute(now), List.of(new PredictorPod("web", PriorityClass.PROD, now.minus(Duration.ofDays(2)), false,
                new Resources(4000, 8 * GI))), now);
        Prediction web = server.prediction("web").orElseThrow();
        // P90 of 2.0..2.9 is 2.8 cores: the p95 is the end of its bucket, a little above.
        assertTrue(web.p95().cpuMilli() >= 2800 && web.p95().cpuMilli() <= 2800 * 1.05, "" + web);
        assertTrue(web.p98().memoryBytes() >= 4 * GI && web.p98().memoryBytes() <= 4 * GI * 1.05, "" + web);
        Prediction sys = server.prediction(ProdReclaimablePredictor.nodeItemUid("sys")).orElseThrow();
        assertTrue(sys.p95().cpuMilli() <= 800, "node 3.5 − pods 2.8 = 0.7 core: " + sys);
        assertTrue(server.prediction(ProdReclaimablePredictor.nodeItemUid("koord-prod")).isPresent());
        assertTrue(server.prediction(ProdReclaimablePredictor.NODE_UID).isPresent());
    }

    @Test
    void aRestartKeepsPredictionsAndACorruptCheckpointStartsFresh() throws Exception {
        Instant now = Instant.parse("2026-11-22T12:00:00Z");
        PeakPredictServer before = new PeakPredictServer(SETTINGS, new PredictionCheckpointStore(dir));
        PredictorPod web = new PredictorPod("web", PriorityClass.PROD, now.minus(Duration.ofDays(2)), false, new Resources(4000, 8 * GI));
        before.train(cacheWithAMinute(now), List.of(web), now);
        int saved = before.checkpoint(now, true);
        assertEquals(before.modelCount(), saved);
        assertTrue(Files.exists(dir.resolve("web")));
        assertTrue(Files.readString(dir.resolve("__node__")).startsWith("{\"UID\":\"__node__\",\"CPU\":{\"referenceTimestamp\":"));

        Files.writeString(dir.resolve(ProdReclaimablePredictor.nodeItemUid("koord-mid")), "{not json");
        Files.writeString(dir.resolve("gone-pod"), Files.readString(dir.resolve("web")).replace("\"web\"", "\"gone-pod\""));
        Files.writeString(dir.resolve("half.tmp"), "{");

        PeakPredictServer after = new PeakPredictServer(SETTINGS, new PredictionCheckpointStore(dir));
        after.restore(Set.of("web"));
        assertEquals(before.prediction("web"), after.prediction("web"), "the pod's model survived the restart");
        assertEquals(before.prediction("__node__"), after.prediction("__node__"));
        assertFalse(after.prediction(ProdReclaimablePredictor.nodeItemUid("koord-mid")).isPresent(), "corrupt: starts fresh");
        assertFalse(Files.exists(dir.resolve(ProdReclaimablePredictor.nodeItemUid("koord-mid"))), "corrupt file deleted");
        assertFalse(Files.exists(dir.resolve("gone-pod")), "a pod no longer here is dropped");
        assertFalse(Files.exists(dir.resolve("half.tmp")));
    }

    @Test
    void garbageCollectionAndCheckpointRoundsWaitForTheFirstTraining() {
        Instant now = Instant.parse("2026-11-22T12:00:00Z");
        PeakPredictServer server = new PeakPredictServer(SETTINGS, new PredictionCheckpointStore(dir));
        assertEquals(0, server.checkpoint(now, false));
        server.train(cacheWithAMinute(now), List.of(), now);
        assertTrue(server.checkpoint(now.plus(Duration.ofMinutes(11)), false) > 0);
        server.collectGarbage(now.plus(Duration.ofMinutes(31)));
        assertEquals(0, server.modelCount());
    }
}
