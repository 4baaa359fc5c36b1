package io.colocation.koordlet.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.PriorityClass;
import io.colocation.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Koordinator's peak_predictor_test.go cases, with its predictions and pods. */
class ProdReclaimablePredictorTest {
    private static final long MI = 1024 * 1024;
    private static final long GI = 1024 * MI;
    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
    private static final Duration COLD_START = Duration.ofHours(1);

    private static Prediction prediction(long p95Cpu, long p95Mem, long p98Cpu, long p98Mem) {
        Resources p95 = new Resources(p95Cpu, p95Mem);
        Resources p98 = new Resources(p98Cpu, p98Mem);
        return new Prediction(p95, p95, p95, p98, p98);
    }

    private static final Prediction ZERO = prediction(0, 0, 0, 0);
    private static final Prediction SYS = prediction(300, 512 * MI, 500, 512 * MI);
    private static final Prediction PROD = prediction(1000, GI, 1200, GI);
    private static final Prediction POD = prediction(500, 768 * MI, 1000, GI);

    private static final PredictorPod COLD = new PredictorPod("pod-1-uid", PriorityClass.PROD, NOW.minus(Duration.ofMinutes(1)), false,
            new Resources(1000, GI));
    private static final PredictorPod NORMAL = new PredictorPod("pod-2-uid", PriorityClass.PROD, NOW.minus(Duration.ofHours(2)), false,
            new Resources(2000, 2 * GI));
    private static final PredictorPod DELETING = new PredictorPod("pod-3-uid", PriorityClass.NONE, NOW.minus(Duration.ofHours(2)), true,
            new Resources(2000, 2 * GI));

    private static ProdReclaimablePredictor.Result run(Resources allocatable, Map<String, Prediction> predictions, List<PredictorPod> pods) {
        return ProdReclaimablePredictor.predict(pods, uid -> Optional.ofNullable(predictions.get(uid)), allocatable, NOW, COLD_START, 10)
                .orElseThrow();
    }

    private static Map<String, Prediction> addPodTestPredictions() {
        Map<String, Prediction> m = new HashMap<>();
        m.put(ProdReclaimablePredictor.nodeItemUid("koord-prod"), PROD);
        m.put(ProdReclaimablePredictor.nodeItemUid("koord-batch"), ZERO);
        m.put(ProdReclaimablePredictor.nodeItemUid("sys"), SYS);
        m.put("pod-1-uid", POD);
        m.put("pod-2-uid", POD);
        m.put("pod-3-uid", ZERO);
        return m;
    }

    @Test
    void nodeCapacityEqualToRequests() {
        ProdReclaimablePredictor.Result r = run(new Resources(3000, 3 * GI), addPodTestPredictions(), List.of(COLD, NORMAL, DELETING));
        Resources pod = new Resources(2000 - 550, 2 * GI - (long) (1.1 * 1024 * 1024 * 1024));
        Resources priority = new Resources(3000 - 1430, 3 * GI - (long) (1.1 * 1536 * 1024 * 1024));
        assertEquals(pod, r.podBased());
        assertEquals(priority, r.priorityBased());
        assertEquals(pod.min(priority), r.reclaimable());
    }

    @Test
    void nodeCapacityAboveRequests() {
        ProdReclaimablePredictor.Result r = run(new Resources(8000, 8 * GI), addPodTestPredictions(), List.of(COLD, NORMAL, DELETING));
        assertEquals(new Resources(2000 - 550, 2 * GI - (long) (1.1 * 1024 * 1024 * 1024)), r.podBased());
        assertEquals(new Resources(3000 - 1430, 3 * GI - (long) (1.1 * 1536 * 1024 * 1024)), r.priorityBased());
    }

    @Test
    void nodeCapacityBelowRequests() {
        ProdReclaimablePredictor.Result r = run(new Resources(1000, GI), addPodTestPredictions(), List.of(COLD, NORMAL, DELETING));
        assertEquals(new Resources(1000 - 550, 0), r.podBased());
        assertEquals(new Resources(0, 0), r.priorityBased());
        assertEquals(new Resources(0, 0), r.reclaimable());
    }

    /** TestPodReclaimablePredictor: every model predicts p95 500m/512Mi, p98 800m/768Mi; a batch pod is ignored. */
    @Test
    void podPredictorAlone() {
        Prediction all = prediction(500, 512 * MI, 800, 768 * MI);
        Map<String, Prediction> m = new HashMap<>();
        for (String uid : List.of("pod-1-uid", "pod-2-uid", "pod-3-uid", "pod-4-uid")) {
            m.put(uid, all);
        }
        m.put(ProdReclaimablePredictor.nodeItemUid("sys"), ZERO);
        PredictorPod batch = new PredictorPod("pod-4-uid", PriorityClass.BATCH, NOW.minus(Duration.ofHours(2)), false, new Resources(2000, 2 * GI));
        PredictorPod deleting = new PredictorPod("pod-3-uid", PriorityClass.PROD, NOW.minus(Duration.ofHours(2)), true, new Resources(2000, 2 * GI));
        long peak = (long) (1.1 * 768 * 1024 * 1024);
        assertEquals(new Resources(2000 - 550, 2 * GI - peak),
                run(new Resources(3000, 3 * GI), m, List.of(COLD, NORMAL, deleting, batch)).podBased());
        assertEquals(new Resources(1000 - 550, GI - peak),
                run(new Resources(1000, GI), m, List.of(COLD, NORMAL, deleting, batch)).podBased());
    }

    @Test
    void peakCountsRequestsOfPodsWithoutPrediction() {
        ProdReclaimablePredictor.Result r = run(new Resources(8000, 8 * GI), addPodTestPredictions(), List.of(COLD, NORMAL, DELETING));
        // pod peak: 550m + cold pod's 1000m request; class peak: 1430m. The larger wins.
        assertEquals(1550, r.peak().cpuMilli());
        assertTrue(r.peak().memoryBytes() >= (long) (1.1 * 1536 * 1024 * 1024));
    }

    @Test
    void noSystemModelMeansNoPrediction() {
        assertTrue(ProdReclaimablePredictor.predict(List.of(NORMAL), uid -> Optional.empty(), new Resources(1000, GI), NOW, COLD_START, 10)
                .isEmpty());
    }
}
