package io.colocation.koordlet.qos.agent;

import io.colocation.api.InvalidInputException;
import io.colocation.koordlet.qos.QoSPod;
import io.colocation.koordlet.qos.QoSPods;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The QoS round's reading of each pod, kept while the pod's resourceVersion stays: a round every second re-reads only
 * the usage, not every pod's requests, classes and annotations (most of the round's cost on a host of a hundred pods).
 * The QoS thread's own.
 */
final class QoSPodCache {
    private static final class Entry {
        final String resourceVersion;
        final QoSPod state;
        final List<String> notes;
        /** The last round that read it. */
        long round;

        Entry(String resourceVersion, QoSPod state, List<String> notes) {
            this.resourceVersion = resourceVersion;
            this.state = state;
            this.notes = notes;
        }
    }

    private final Map<String, Entry> byUid = new HashMap<>();
    /** The round being read, and how many kept pods it has read so far. */
    private long round;
    private int readThisRound;

    /** A new round: the pods it does not read by its {@link #endRound} are forgotten. */
    void beginRound() {
        round++;
        readThisRound = 0;
    }

    /**
     * The pod as the strategies see it, with this usage; what {@link QoSPods#of} notes is added to {@code notes}, each
     * naming the pod.
     */
    QoSPod of(Pod pod, Long cpuUsedMilli, Long memoryUsedBytes, List<String> notes) throws InvalidInputException {
        String uid = pod.getMetadata().getUid();
        String version = pod.getMetadata().getResourceVersion();
        Entry e = uid == null ? null : byUid.get(uid);
        if (e == null || version == null || !version.equals(e.resourceVersion)) {
            List<String> read = new ArrayList<>();
            String where = "Pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + ": ";
            QoSPod state = QoSPods.of(pod, null, null, where, read);
            e = new Entry(version, state, List.copyOf(read));
            if (uid == null || version == null) { // not kept: read again next round
                notes.addAll(e.notes);
                return e.state.withUsage(cpuUsedMilli, memoryUsedBytes);
            }
            byUid.put(uid, e);
        }
        if (e.round != round) {
            e.round = round;
            readThisRound++;
        }
        notes.addAll(e.notes);
        return e.state.withUsage(cpuUsedMilli, memoryUsedBytes);
    }

    /** Forgets the pods the round did not read (they are gone); a round that read every kept pod has nothing to look at. */
    void endRound() {
        if (byUid.size() > readThisRound) {
            byUid.values().removeIf(e -> e.round != round);
        }
    }
}
