package io.colocation.koordlet.kube;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One reading of each pod of the node, made again only when the pod's resourceVersion changed. The koordlet's rounds
 * (collect, training, QoS) each read every pod every interval, and parsing a pod's requests, classes and annotations
 * costs more than the rest of such a round. A round is {@link #beginRound}, {@link #of} for each pod, {@link #endRound};
 * the pods a round did not read are forgotten. A pod without a uid or a resourceVersion is read each time and not kept.
 * Not thread-safe: each round's thread has its own.
 *
 * @param <T> the reading; may be null (for example a pod the round leaves out)
 */
public final class PodReadings<T> {
    private static final class Entry<T> {
        final String version;
        final T reading;
        /** The last round that read it. */
        long round;

        Entry(String version, T reading) {
            this.version = version;
            this.reading = reading;
        }
    }

    private final Function<Pod, T> read;
    private final Map<String, Entry<T>> byUid = new HashMap<>();
    private long round;
    /** The kept pods this round has read so far, and whether it read any pod anew. */
    private int readThisRound;
    private boolean readAnew;

    public PodReadings(Function<Pod, T> read) {
        this.read = read;
    }

    /** A new round: the pods it does not read by its {@link #endRound} are forgotten then. */
    public void beginRound() {
        round++;
        readThisRound = 0;
        readAnew = false;
    }

    /** The pod's reading: the kept one while its resourceVersion stays, else a new one. */
    public T of(Pod pod) {
        String uid = pod.getMetadata().getUid();
        String version = pod.getMetadata().getResourceVersion();
        Entry<T> e = uid == null ? null : byUid.get(uid);
        if (e == null || version == null || !version.equals(e.version)) {
            readAnew = true;
            T reading = read.apply(pod);
            if (uid == null || version == null) {
                return reading;
            }
            e = new Entry<>(version, reading);
            byUid.put(uid, e);
        }
        if (e.round != round) {
            e.round = round;
            readThisRound++;
        }
        return e.reading;
    }

    /**
     * Forgets the pods the round did not read (they are gone). Returns whether the round differed from the one before:
     * a pod read anew or one forgotten. A round that read every kept pod has nothing to look through.
     */
    public boolean endRound() {
        if (byUid.size() > readThisRound) {
            byUid.values().removeIf(e -> e.round != round);
            return true;
        }
        return readAnew;
    }
}
