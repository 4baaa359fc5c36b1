package io.colocation.koordlet.predict;

import io.colocation.api.PriorityClass;
import io.colocation.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Koordinator's {@code ProdReclaimablePredictor} (docs/koordinator-compatibility.md §3.2): the minimum of a per-pod and a
 * per-priority-class prediction of what prod pods request but will not use, and the prod peak. A pure function
 * of the pods, the predictions and the node's allocatable.
 */
public final class ProdReclaimablePredictor {
    /** Model ids of the node items (Koordinator's {@code getNodeItemUID}). */
    public static final String NODE_UID = "__node__";
    public static final String SYSTEM_ITEM = "sys";

    private ProdReclaimablePredictor() {
    }

    public static String nodeItemUid(String item) {
        return "__node-" + item + "__";
    }

    /**
     * @param reclaimable   min of the two predictors
     * @param peak          max of the two predictors' peaks (incl. system, scaled, with unpredicted pods' requests)
     * @param podBased      the per-pod predictor's reclaimable
     * @param priorityBased the per-class predictor's reclaimable
     */
    public record Result(Resources reclaimable, Resources peak, Resources podBased, Resources priorityBased) {
    }

    /**
     * @return empty when the system model has no prediction yet (Koordinator then reports nothing)
     */
    public static Optional<Result> predict(List<PredictorPod> pods, Function<String, Optional<Prediction>> predictions,
            Resources nodeAllocatable, Instant now, Duration coldStart, int safetyMarginPercent) {
        double ratio = (100.0 + safetyMarginPercent) / 100;

        // Per pod: what each long-running prod pod requests above its own peak.
        Resources reclaimable = Resources.ZERO;
        Resources unReclaimable = Resources.ZERO;
        Resources unpredicted = Resources.ZERO;
        for (PredictorPod pod : pods) {
            if (!pod.reclaimableForProd() || pod.ending()) {
                continue;
            }
            if (!pod.created().isBefore(now.minus(coldStart))) {
                unpredicted = unpredicted.plus(pod.requests());
                continue;
            }
            Optional<Prediction> p = predictions.apply(pod.uid());
            if (p.isEmpty()) {
                unpredicted = unpredicted.plus(pod.requests());
                continue;
            }
            Resources peak = scale(p.get().peak(), ratio);
            unReclaimable = unReclaimable.plus(peak);
            reclaimable = reclaimable.plus(pod.requests().minus(peak).atLeastZero());
        }
        Resources podBased = nodeAllocatable.minus(unReclaimable).atLeastZero().min(reclaimable);
        Resources podPeak = unReclaimable.plus(unpredicted);

        // Per class: requests of prod pods above the peak of system + the prod classes together.
        Optional<Prediction> sys = predictions.apply(nodeItemUid(SYSTEM_ITEM));
        if (sys.isEmpty()) {
            return Optional.empty();
        }
        Resources classPeak = sys.get().peak();
        for (PriorityClass c : PriorityClass.values()) {
            if (PredictorPod.reclaimableForProd(c)) {
                Optional<Prediction> p = predictions.apply(nodeItemUid(c.koordName()));
                if (p.isPresent()) {
                    classPeak = classPeak.plus(p.get().peak());
                }
            }
        }
        classPeak = scale(classPeak, ratio);
        Resources requests = Resources.ZERO;
        for (PredictorPod pod : pods) {
            if (pod.reclaimableForProd() && !pod.ending()) {
                requests = requests.plus(pod.requests());
            }
        }
        Resources priorityBased = nodeAllocatable.minus(classPeak).atLeastZero().min(requests.minus(classPeak).atLeastZero());

        return Optional.of(new Result(podBased.min(priorityBased), podPeak.max(classPeak), podBased, priorityBased));
    }

    /** Koordinator's {@code MultiplyMilliQuant}/{@code MultiplyQuant}: truncated after the float multiply. */
    static Resources scale(Resources r, double ratio) {
        return new Resources((long) (r.cpuMilli() * ratio), (long) (r.memoryBytes() * ratio));
    }
}
