package io.colocation.koordlet;

import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.Usage;
import io.colocation.koordlet.collect.UsageSource;
import java.util.HashMap;
import java.util.Map;

/**
 * A host whose usage holds still (the agent's own collaborator, for tests of what it does with usage against a real API
 * server): the system's, each listed pod's ({@code namespace/name}) and each YARN container's; the node's is their sum.
 */
record SteadyUsageSource(Usage system, Map<String, Usage> pods, Map<String, Usage> yarnContainers) implements UsageSource {
    @Override
    public HostSample collect(CollectTargets targets, long nowMillis) {
        Usage node = system;
        Map<String, Usage> measured = new HashMap<>();
        for (CollectTargets.PodTarget pod : targets.pods()) {
            Usage u = pods.get(pod.key());
            if (u != null) {
                measured.put(pod.uid(), u);
                node = node.plus(u);
            }
        }
        for (Usage u : yarnContainers.values()) {
            node = node.plus(u);
        }
        return new HostSample(nowMillis, node, measured, Map.of(), Map.of(), yarnContainers, HostSample.yarnTotal(true, yarnContainers),
                HostSample.Pressure.NONE);
    }

    @Override
    public String describe() {
        return "a steady host (test)";
    }

    @Override
    public Map<String, String> problems() {
        return Map.of();
    }
}
