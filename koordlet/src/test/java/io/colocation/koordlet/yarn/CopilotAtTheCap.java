package io.colocation.koordlet.yarn;

import io.colocation.koordlet.collect.CollectTargets.YarnTarget;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Asks the copilot at {@code args[0]} for its containers once, in a JVM of the koordlet's heap (started by
 * {@link CopilotClientTest}): prints {@code LISTED n} or {@code REFUSED problems}; an OutOfMemoryError ends the JVM
 * with the launcher's -XX:+ExitOnOutOfMemoryError.
 */
public final class CopilotAtTheCap {
    private CopilotAtTheCap() {
    }

    public static void main(String[] args) throws Exception {
        CopilotClient client = CopilotClient.create(args[0], "", Path.of("/proc"), List.of("yarn"));
        Optional<List<YarnTarget>> listed = client.runningContainers("kubepods/besteffort/hadoop-yarn");
        System.out.println(listed.map(l -> "LISTED " + l.size()).orElse("REFUSED " + client.problems()));
    }
}
