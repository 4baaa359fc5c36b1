package io.colocation.koordlet.yarn;

import io.colocation.koordlet.Koordlet;
import io.colocation.koordlet.cache.MetricCache;
import io.colocation.koordlet.collect.CollectTargets.YarnTarget;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.Usage;
import io.colocation.koordlet.config.KoordletConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Asks the copilot at {@code args[0]} for its containers, in a JVM of the koordlet's heap (started by
 * {@link CopilotClientTest}), and keeps what the agent keeps of them: 11 minutes of one-second samples of every listed
 * container and of 100 pods in the metric cache the agent builds from its default configuration, the list asked again
 * each minute. Prints {@code LISTED n} or {@code REFUSED problems}; an OutOfMemoryError ends the JVM with the launcher's
 * -XX:+ExitOnOutOfMemoryError.
 */
public final class CopilotAtTheCap {
    private CopilotAtTheCap() {
    }

    public static void main(String[] args) throws Exception {
        CopilotClient client = CopilotClient.create(args[0], "", Path.of("/proc"), List.of("yarn"));
        MetricCache cache = Koordlet.metricCache(new KoordletConfig());
        Optional<List<YarnTarget>> listed = Optional.empty();
        for (int second = 0; second < 660; second++) {
            if (second % 60 == 0) {
                listed = client.runningContainers("kubepods/besteffort/hadoop-yarn");
            }
            Map<String, Usage> containers = new HashMap<>();
            listed.orElse(List.of()).forEach(c -> containers.put(c.containerID(), new Usage(0.5, 512L << 20)));
            Map<String, Usage> pods = new HashMap<>();
            for (int p = 0; p < 100; p++) {
                pods.put("pod-uid-" + p, new Usage(0.1, 64L << 20));
            }
            cache.append(new HostSample(second * 1000L, new Usage(8, 32L << 30), pods, Map.of(), Map.of(), containers,
                    HostSample.yarnTotal(listed.isPresent(), containers), HostSample.Pressure.NONE));
        }
        System.out.println(listed.map(l -> "LISTED " + l.size()).orElse("REFUSED " + client.problems()));
    }
}
