package io.colocation.localclusters.process;

import java.nio.file.Path;

/** A part of a local cluster (the sandbox, the simulator) did not start: which one, why, and where its log is. */
public final class PartFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    public PartFailedException(String part, String cause, Path log) {
        super(part + " did not start: " + cause + (log == null ? "" : " (log: " + log + ")"));
    }
}
