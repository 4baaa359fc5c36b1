package io.colocation.koordlet.predict;

import io.colocation.api.InvalidInputException;
import io.colocation.koordlet.NodeInputs;
import io.colocation.koordlet.kube.PodReadings;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The node's pods as the predictor reads them, each read again only when its resourceVersion changed: every training
 * round reads every pod, and parsing its requests and creation time each time cost more than the training itself. A pod
 * that cannot be read is left out and its problem handed to {@code problem} (subject, cause) every round, as before.
 * The work thread's own.
 */
public final class PredictorPods {
    private record Reading(String where, PredictorPod pod, String problem) {
    }

    private final PodReadings<Reading> readings = new PodReadings<>(PredictorPods::read);

    public List<PredictorPod> of(List<Pod> pods, BiConsumer<String, String> problem) {
        List<PredictorPod> result = new ArrayList<>(pods.size());
        readings.beginRound();
        for (Pod p : pods) {
            if (p.getMetadata().getUid() == null) {
                continue;
            }
            Reading r = readings.of(p);
            if (r.pod() != null) {
                result.add(r.pod());
            } else {
                problem.accept(r.where(), r.problem());
            }
        }
        readings.endRound();
        return result;
    }

    private static Reading read(Pod p) {
        String where = "pod " + p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
        try {
            return new Reading(where, NodeInputs.predictorPod(p, where), null);
        } catch (InvalidInputException e) {
            return new Reading(where, null, e.getMessage());
        }
    }
}
