package io.colocation.copilot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a pid still runs, read from /proc as the kernel says it: a zombie has ended (its memory and CPU
 * are released) and only waits for its parent, or init in a container, to reap it, which may take a while;
 * {@code ProcessHandle.isAlive} counts it as alive until then.
 */
final class RunningProcess {
    private RunningProcess() {
    }

    static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException e) {
            return false;
        }
    }
}
