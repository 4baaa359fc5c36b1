package io.colocation.broker.cli;

/** The calc command cannot go on; the message says which input is wrong and how. */
final class CalcException extends Exception {
    private static final long serialVersionUID = 1L;

    CalcException(String message) {
        super(message);
    }
}
