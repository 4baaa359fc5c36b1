package io.colocation.broker.decision;

import java.time.Instant;

/** A node input that cannot be read, first seen at {@code since} (the grace before its Batch is removed runs from then). */
public record InputFault(String cause, Instant since) {
}
