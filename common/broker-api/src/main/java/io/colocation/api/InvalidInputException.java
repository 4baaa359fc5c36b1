package io.colocation.api;

/** A text is not a usable Kubernetes quantity; the message names where it was read. */
public final class InvalidInputException extends Exception {
    private static final long serialVersionUID = 1L;

    public InvalidInputException(String message) {
        super(message);
    }
}
