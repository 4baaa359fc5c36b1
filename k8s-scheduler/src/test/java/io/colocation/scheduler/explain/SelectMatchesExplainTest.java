package io.colocation.scheduler.explain;

import static io.colocation.scheduler.explain.SchedulerExplainCommandTest.NOW;
import static io.colocation.scheduler.explain.SchedulerExplainCommandTest.metric;
import static io.colocation.scheduler.explain.SchedulerExplainCommandTest.node;
import static io.colocation.scheduler.explain.SchedulerExplainCommandTest.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.colocation.scheduler.config.KubeSchedulerConfiguration;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.SchedulingCycle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The running scheduler's selection (filters stop at the first rejection, only feasible nodes scored, the first
 * feasible node when nothing scores) is the node {@code explain} shows as selected, on random clusters: nodes of
 * different sizes, tainted or labelled, loaded or without a metric, with pods on them, for each profile shape.
 */
class SelectMatchesExplainTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static final Map<String, String> PROFILES = Map.of(
            "default (LoadAware filter and score)", "",
            "no score plugin", """
                    apiVersion: kubescheduler.config.k8s.io/v1
                    kind: KubeSchedulerConfiguration
                    profiles:
                    - schedulerName: koord-scheduler
                      plugins:
                        score: {disabled: [{name: LoadAwareScheduling}]}
                    """,
            "tight thresholds, dominant resource", """
                    apiVersion: kubescheduler.config.k8s.io/v1
                    kind: KubeSchedulerConfiguration
                    profiles:
                    - schedulerName: koord-scheduler
                      plugins:
                        score: {enabled: [{name: LoadAwareScheduling, weight: 3}]}
                      pluginConfig:
                      - name: LoadAwareScheduling
                        args: {usageThresholds: {cpu: 40, memory: 70}, dominantResourceWeight: 1}
                    """);

    @Test
    void selectsWhatExplainSelects(@TempDir Path dir) throws Exception {
        Random random = new Random(20261123);
        int unschedulable = 0;
        for (Map.Entry<String, String> p : PROFILES.entrySet()) {
            Profile profile = p.getValue().isEmpty() ? KubeSchedulerConfiguration.defaults().profiles().get(0)
                    : KubeSchedulerConfiguration.parse(YAML.readTree(p.getValue()), p.getKey()).profiles().get(0);
            for (int c = 0; c < 150; c++) {
                Path file = dir.resolve("case.yaml");
                Files.writeString(file, cluster(random));
                SchedulingInput.Result in = SchedulingInput.read(List.of(file.toString()), null, Instant.parse(NOW), null);
                SchedulingCycle.Decision decision = SchedulingCycle.decide(profile, in.snapshot(), in.pending());
                assertEquals(decision.selected(), SchedulingCycle.select(profile, in.snapshot(), in.pending(), null).node(),
                        p.getKey() + ", case " + c + ":\n" + Files.readString(file));
                unschedulable += decision.selected() == null ? 1 : 0;
            }
        }
        assertTrue(unschedulable > 0 && unschedulable < 3 * 150 / 2, "the cases cover both outcomes: " + unschedulable);
    }

    private static String cluster(Random r) {
        StringBuilder y = new StringBuilder();
        int nodes = 1 + r.nextInt(8);
        for (int n = 0; n < nodes; n++) {
            String name = "node-" + n;
            String spec = r.nextInt(6) == 0 ? "spec: {taints: [{key: dedicated, value: online, effect: NoSchedule}]}\n" : "";
            y.append(spec.isEmpty() ? "" : "# tainted\n").append(node(name, String.valueOf(8 + 8 * r.nextInt(4)),
                    (32 + 32 * r.nextInt(4)) + "Gi", ", kubernetes.io/batch-cpu: \"" + 1000 * r.nextInt(16) + "\"")
                    .replace("status:\n", spec + "status:\n"));
            for (int i = r.nextInt(4); i > 0; i--) {
                y.append(pod(name + "-pod-" + i, name, r.nextBoolean() ? 9000 : 5000,
                        "cpu: \"" + (1 + r.nextInt(6)) + "\", memory: " + (1 + r.nextInt(8)) + "Gi, kubernetes.io/batch-cpu: \""
                                + 500 * r.nextInt(4) + "\"", r.nextBoolean() ? NOW : "2026-11-23T07:50:00Z"));
            }
            if (r.nextInt(5) > 0) {
                String updated = r.nextInt(8) == 0 ? "2026-11-23T07:00:00Z" : "2026-11-23T07:59:30Z";
                y.append(metric(name, updated, String.valueOf(r.nextInt(24)), r.nextInt(200) + "Gi", ""));
            }
        }
        y.append(pod("incoming", null, 5000, "cpu: \"" + (1 + r.nextInt(4)) + "\", memory: " + (1 + r.nextInt(8))
                + "Gi, kubernetes.io/batch-cpu: \"" + 1000 * r.nextInt(4) + "\"", null));
        return y.toString();
    }
}
