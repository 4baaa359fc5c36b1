package io.colocation.koordlet.qos.agent;

import io.colocation.api.InvalidInputException;
import java.util.ArrayList;
import java.util.List;

/**
 * One object's decoding, kept while the object's resourceVersion stays: the QoS round runs every second, the Node and
 * the NodeSLO change every few minutes. What the decoding noted is kept with it and noted again each round. A decoding
 * that fails is not kept (it is tried again next round, and its error reported again). The QoS thread's own.
 */
final class ByVersion<S, T> {
    @FunctionalInterface
    interface Decoder<S, T> {
        T decode(S source, List<String> notes) throws InvalidInputException;
    }

    private final Decoder<S, T> decoder;
    private String version;
    private T value;
    private List<String> notes = List.of();

    ByVersion(Decoder<S, T> decoder) {
        this.decoder = decoder;
    }

    /** The decoding of {@code source} at {@code version} (null: decoded every time); its notes added to {@code notes}. */
    T of(S source, String version, List<String> notes) throws InvalidInputException {
        if (version == null || !version.equals(this.version)) {
            List<String> read = new ArrayList<>();
            T decoded = decoder.decode(source, read);
            this.version = version;
            this.value = decoded;
            this.notes = List.copyOf(read);
        }
        notes.addAll(this.notes);
        return value;
    }
}
