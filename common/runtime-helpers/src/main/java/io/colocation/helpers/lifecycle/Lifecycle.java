package io.colocation.helpers.lifecycle;

/**
 * The LATENT → STARTED → CLOSED lifecycle of a long-lived part (Curator's recipes' model): started once, closed once,
 * closing what was never started is harmless, and starting after a close is a bug that says so.
 */
public final class Lifecycle {
    public enum State { LATENT, STARTED, CLOSED }

    private final String what;
    private volatile State state = State.LATENT;

    /** @param what names the part in the errors ({@code "koordlet"}) */
    public Lifecycle(String what) {
        this.what = what;
    }

    /** What a part does to start; it may fail, and the part stays LATENT then. */
    @FunctionalInterface
    public interface Startup<E extends Exception> {
        void run() throws E;
    }

    /** LATENT → STARTED; an IllegalStateException naming the part otherwise. */
    public void start() {
        start(() -> { });
    }

    /** Runs {@code startup} and moves LATENT → STARTED when it succeeds; an IllegalStateException naming the part when not LATENT. */
    public synchronized <E extends Exception> void start(Startup<E> startup) throws E {
        if (state != State.LATENT) {
            throw new IllegalStateException(what + " already " + state);
        }
        startup.run();
        state = State.STARTED;
    }

    /** → CLOSED; returns the state it was in, so a part closes what it started and nothing twice. */
    public synchronized State close() {
        State was = state;
        state = State.CLOSED;
        return was;
    }

    public State state() {
        return state;
    }

    public boolean started() {
        return state == State.STARTED;
    }
}
