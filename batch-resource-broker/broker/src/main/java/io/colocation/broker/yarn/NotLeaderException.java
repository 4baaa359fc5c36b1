package io.colocation.broker.yarn;

/** A write was refused because this replica does not lead (or no longer leads) the brokers. */
public final class NotLeaderException extends Exception {
    public NotLeaderException(String message) {
        super(message);
    }
}
