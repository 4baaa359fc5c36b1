package io.colocation.koordlet.qos.agent;

import io.colocation.api.InvalidInputException;
import io.colocation.koordlet.qos.QoSPod;
import io.colocation.koordlet.qos.QoSPods;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The QoS round's reading of each pod, kept while the pod's resourceVersion stays: a round every second re-reads only
 * the usage, not every pod's requests, classes and annotations (most of the round's cost on a host of a hundred pods).
 * The QoS thread's own.
 */
final class QoSPodCache {
    private record Entry(String resourceVersion, QoSPod state, List<String> notes) {
    }

    private final Map<String, Entry> byUid = new HashMap<>();

    /** The pod as the strategies see it, with this usage; what {@link QoSPods#of} notes is added to {@code notes}. */
    QoSPod of(Pod pod, Long cpuUsedMilli, Long memoryUsedBytes, String where, List<String> notes) throws InvalidInputException {
        String uid = pod.getMetadata().getUid();
        String version = pod.getMetadata().getResourceVersion();
        Entry e = uid == null ? null : byUid.get(uid);
        if (e == null || version == null || !version.equals(e.resourceVersion())) {
            List<String> read = new ArrayList<>();
            QoSPod state = QoSPods.of(pod, null, null, where, read);
            e = new Entry(version, state, List.copyOf(read));
            if (uid != null && version != null) {
                byUid.put(uid, e);
            }
        }
        notes.addAll(e.notes());
        return e.state().withUsage(cpuUsedMilli, memoryUsedBytes);
    }

    /** Forgets the pods that are gone. */
    void retain(Set<String> uids) {
        byUid.keySet().retainAll(uids);
    }
}
