package io.colocation.koordlet.predict;

import io.colocation.api.InvalidInputException;
import io.colocation.koordlet.NodeInputs;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The node's pods as the predictor reads them, each read again only when its resourceVersion changed: every training
 * round reads every pod, and parsing its requests and creation time each time cost more than the training itself. A pod
 * that cannot be read is left out and its problem handed to {@code problem} (subject, cause) every round, as before.
 * The work thread's own.
 */
public final class PredictorPods {
    private record Entry(String version, String where, PredictorPod pod, String problem) {
    }

    /** Pod uid → the last reading. */
    private Map<String, Entry> byUid = Map.of();

    public List<PredictorPod> of(List<Pod> pods, BiConsumer<String, String> problem) {
        Map<String, Entry> next = new HashMap<>(pods.size() * 2);
        List<PredictorPod> result = new ArrayList<>(pods.size());
        for (Pod p : pods) {
            String uid = p.getMetadata().getUid();
            if (uid == null) {
                continue;
            }
            String version = p.getMetadata().getResourceVersion();
            Entry e = byUid.get(uid);
            if (e == null || version == null || !Objects.equals(e.version(), version)) {
                e = read(p, version);
            }
            next.put(uid, e);
            if (e.pod() != null) {
                result.add(e.pod());
            } else {
                problem.accept(e.where(), e.problem());
            }
        }
        byUid = next;
        return result;
    }

    private static Entry read(Pod p, String version) {
        String where = "pod " + p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
        try {
            return new Entry(version, where, NodeInputs.predictorPod(p, where), null);
        } catch (InvalidInputException e) {
            return new Entry(version, where, null, e.getMessage());
        }
    }
}
