package io.colocation.model;

import io.colocation.api.InvalidInputException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Kubernetes times ({@code metav1.Time}: RFC 3339, {@code 2026-11-21T08:00:00Z}); the one parser every part uses. */
public final class KubeTime {
    private KubeTime() {
    }

    /** The instant; an error naming {@code where} and the value when it is not RFC 3339. */
    public static Instant parse(String text, String where) throws InvalidInputException {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException | NullPointerException e) {
            throw new InvalidInputException(where + " \"" + text + "\" is not an RFC 3339 time such as 2026-11-21T08:00:00Z");
        }
    }

    /** The instant, or null when {@code text} is null or empty. */
    public static Instant parseOptional(String text, String where) throws InvalidInputException {
        return text == null || text.isEmpty() ? null : parse(text, where);
    }
}
