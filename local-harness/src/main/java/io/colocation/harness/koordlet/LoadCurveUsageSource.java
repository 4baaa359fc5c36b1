package io.colocation.harness.koordlet;

import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.Usage;
import io.colocation.koordlet.collect.UsageSource;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A simulated host: usage replayed from a {@link LoadCurve} instead of read from the kernel, behind the same
 * interface, so one machine can run several koordlets for distinct simulated nodes. Pods come from the API
 * server as on a real host and are matched to curves by {@code namespace/name} (unlisted pods follow
 * {@code defaultPod}, or are not measured), YARN containers listed by the copilot follow {@code defaultYarnContainer};
 * node usage is the sum of everything plus {@code system}.
 */
public final class LoadCurveUsageSource implements UsageSource {
    private final Path file;
    private final LoadCurve curve;
    private final long startMillis;

    public LoadCurveUsageSource(Path file, LoadCurve curve, long startMillis) {
        this.file = file;
        this.curve = curve;
        this.startMillis = startMillis;
    }

    @Override
    public String describe() {
        return "simulated host replaying " + file;
    }

    @Override
    public Map<String, String> problems() {
        return Map.of();
    }

    @Override
    public HostSample collect(CollectTargets targets, long nowMillis) {
        long t = curve.fold(nowMillis - startMillis);
        Usage node = curve.system() == null ? new Usage(0, 0) : curve.system().at(t);
        Map<String, Usage> pods = new HashMap<>();
        for (CollectTargets.PodTarget pod : targets.pods()) {
            LoadCurve.Curve c = curve.pods().getOrDefault(pod.key(), curve.defaultPod());
            if (c != null) {
                Usage u = c.at(t);
                pods.put(pod.uid(), u);
                node = node.plus(u);
            }
        }
        Map<String, Usage> apps = new HashMap<>();
        for (CollectTargets.HostAppTarget app : targets.hostApps()) {
            LoadCurve.Curve c = curve.hostApps().get(app.name());
            if (c != null) {
                Usage u = c.at(t);
                apps.put(app.name(), u);
                node = node.plus(u);
            }
        }
        Map<String, Usage> yarn = new HashMap<>();
        curve.yarnContainers().forEach((id, c) -> yarn.put(id, c.at(t)));
        if (curve.defaultYarnContainer() != null) {
            // The copilot's containers (a real NodeManager's), each following the default curve.
            for (CollectTargets.YarnTarget c : targets.yarnContainers()) {
                yarn.putIfAbsent(c.containerID(), curve.defaultYarnContainer().at(t));
            }
        }
        for (Usage u : yarn.values()) {
            node = node.plus(u);
        }
        // With a copilot's containers, their total is unknown while the copilot's list is (it is not 0).
        boolean listKnown = curve.defaultYarnContainer() == null || targets.yarnListKnown();
        return new HostSample(nowMillis, node, pods, Map.of(), apps, yarn, HostSample.yarnTotal(listKnown, yarn), HostSample.Pressure.NONE);
    }
}
