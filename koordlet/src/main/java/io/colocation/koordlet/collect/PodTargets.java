package io.colocation.koordlet.collect;

import io.colocation.koordlet.NodeInputs;
import io.colocation.koordlet.kube.PodReadings;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods a sample measures, each computed again only when its resourceVersion changed (a pod's kube QoS needs its
 * resources parsed, which every second for every pod would cost more than reading its cgroup). The collect thread's own.
 */
public final class PodTargets {
    private final PodReadings<CollectTargets.PodTarget> readings = new PodReadings<>(NodeInputs::podTarget);
    private List<CollectTargets.PodTarget> last = List.of();
    private volatile Map<String, String> names = Map.of();

    /** The targets of {@code pods}; the last call's list itself when the pods and their versions are the same. */
    public List<CollectTargets.PodTarget> of(List<Pod> pods) {
        List<CollectTargets.PodTarget> result = new ArrayList<>(pods.size());
        readings.beginRound();
        for (Pod p : pods) {
            CollectTargets.PodTarget t = readings.of(p);
            if (t != null) {
                result.add(t);
            }
        }
        if (!readings.endRound()) {
            return last;
        }
        Map<String, String> n = new HashMap<>();
        result.forEach(t -> n.put(t.uid(), t.key()));
        names = n;
        last = Collections.unmodifiableList(result);
        return last;
    }

    /** Pod uid → {@code namespace/name} of the pods measured. */
    public Map<String, String> names() {
        return names;
    }
}
