package io.colocation.broker.kube;

/** An input object cannot be used; the message names the object and the field. */
public final class InvalidInputException extends Exception {
    private static final long serialVersionUID = 1L;

    public InvalidInputException(String message) {
        super(message);
    }
}
