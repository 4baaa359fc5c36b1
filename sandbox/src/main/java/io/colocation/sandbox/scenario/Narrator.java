package io.colocation.sandbox.scenario;

import java.io.PrintStream;
import java.time.Duration;

/** Tells the story: one line per event, stamped with the time since the start, and a progress line. */
public final class Narrator {
    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private final boolean console = System.console() != null;
    private boolean progressShown;
    private boolean stopping;

    public Narrator(PrintStream out) {
        this.out = out;
    }

    public synchronized void say(String line) {
        clearProgress();
        out.printf("[%s] %s%n", stamp(), line);
        out.flush();
    }

    /** On a terminal the progress line is rewritten in place; in a log it is printed every call (call it rarely). */
    public synchronized void progress(String line) {
        if (stopping) {
            return; // the scenario may still be between two steps while everything stops: no progress after the end
        }
        if (console) {
            out.print("\r\033[K  … " + line);
            progressShown = true;
        } else {
            out.printf("[%s]   … %s%n", stamp(), line);
        }
        out.flush();
    }

    /** Says that everything stops; no progress line follows. */
    public synchronized void stopping() {
        stopping = true;
        say("stopping every part");
    }

    public synchronized void plain(String text) {
        clearProgress();
        out.println(text);
        out.flush();
    }

    private void clearProgress() {
        if (progressShown) {
            out.print("\r\033[K");
            progressShown = false;
        }
    }

    private String stamp() {
        Duration d = Duration.ofNanos(System.nanoTime() - startNanos);
        return String.format("%02d:%02d", d.toMinutes(), d.toSecondsPart());
    }
}
